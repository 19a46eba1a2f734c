//! JSON text exactly as JavaScript's `JSON.stringify(value, null, 2)` writes it: two-space
//! indentation and numbers in JavaScript's shortest form (`1`, not `1.0`; `1e+21`). The seed's
//! CLI writes `database.json` this way, so an unchanged seed file round-trips byte for byte, and
//! every face (native, wasm, component) produces the same bytes.

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

/// A computed figure as evodb shows it: `x` to 12 significant digits, so a mean or a difference
/// prints as `0.79855`, not `0.7985500000000001` — far below any benchmark's resolution, and the
/// same on every face (Rust's float formatting and parsing are exact wherever the core runs).
///
/// ```
/// assert_eq!(evodb_core::json_text::shown(0.7985500000000001), 0.79855);
/// assert_eq!(evodb_core::json_text::shown(0.1 + 0.2), 0.3);
/// assert_eq!(evodb_core::json_text::shown(-1234.5), -1234.5);
/// ```
pub fn shown(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    format!("{x:.11e}").parse::<f64>().map_or(x, |rounded| rounded + 0.0)
}

/// serde_json's pretty or compact layout with JavaScript number formatting.
struct JsNumbers<F>(F);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $name<W: ?Sized + io::Write>(&mut self, writer: &mut W $(, $arg: $ty)*) -> io::Result<()> {
            self.0.$name(writer $(, $arg)*)
        }
    )*};
}

impl<F: Formatter> Formatter for JsNumbers<F> {
    delegate! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        begin_object_value();
        end_object_value();
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        if !value.is_finite() {
            // JSON.stringify writes null for NaN and ±Infinity; the engine never stores them.
            return writer.write_all(b"null");
        }
        writer.write_all(ryu_js::Buffer::new().format_finite(value).as_bytes())
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        self.write_f64(writer, f64::from(value))
    }
}

fn write<T: Serialize + ?Sized, F: Formatter>(value: &T, formatter: F) -> String {
    let mut out = Vec::with_capacity(4096);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, JsNumbers(formatter));
    value.serialize(&mut ser).expect("engine values always serialize");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// `JSON.stringify(value, null, 2)`.
pub fn to_pretty_js<T: Serialize + ?Sized>(value: &T) -> String {
    write(value, PrettyFormatter::with_indent(b"  "))
}

/// `JSON.stringify(value)`: one line, as the seed CLI prints results.
pub fn to_compact_js<T: Serialize + ?Sized>(value: &T) -> String {
    write(value, CompactFormatter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_are_written_like_javascript() {
        let v = json!({"a": 1.0, "b": 0.1, "c": 1e21, "d": 1.5e-7, "e": 1795291634.949, "f": -0.0, "g": 3});
        assert_eq!(to_compact_js(&v), r#"{"a":1,"b":0.1,"c":1e+21,"d":1.5e-7,"e":1795291634.949,"f":0,"g":3}"#);
    }

    #[test]
    fn pretty_layout_matches_json_stringify() {
        let v = json!({"x": [1, [], {}], "y": {"z": "q\"\n"}});
        assert_eq!(
            to_pretty_js(&v),
            "{\n  \"x\": [\n    1,\n    [],\n    {}\n  ],\n  \"y\": {\n    \"z\": \"q\\\"\\n\"\n  }\n}"
        );
    }
}
