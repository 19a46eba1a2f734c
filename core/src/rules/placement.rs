//! `apply`'s rule for where a program's code goes in the user's file (`place_in_target`). A run
//! may hold whole files (git mode, `--targetCodeFile`) or one definition of a module (the seed
//! skill stores the target's definition): writing a definition over the whole file would delete
//! the module's imports, docstring and other functions. So the code replaces the whole file only
//! when the file is recognisably a program of the run; it replaces one definition only where a
//! program's definition stands exactly once; anything else is refused, never guessed.

/// Where the code went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FilePlacement {
    /// The file was program `replaced` whole; the code takes its place.
    WholeFile { replaced: String },
    /// Program `replaced`'s definition stood once in the file; the code took its place there.
    Definition { replaced: String },
}

/// The file with the code in place, and where it went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub contents: String,
    pub placement: FilePlacement,
}

/// Places `code` in `file`. `programs` are the run's programs as (id, code), the one applied's
/// nearest ancestors first (then any other): the first whose code is the whole file, or else
/// stands once in it, says where the code goes. `Ok(None)`: the file already holds the code.
/// The error says why it cannot tell, for a message.
pub fn place_in_target(file: &str, code: &str, programs: &[(&str, &str)]) -> Result<Option<Placed>, String> {
    if file == code {
        return Ok(None);
    }
    if let Some((id, _)) = programs.iter().find(|(_, program)| file.trim_end() == program.trim_end()) {
        let placement = FilePlacement::WholeFile { replaced: (*id).to_string() };
        return Ok(Some(Placed { contents: code.to_string(), placement }));
    }
    let wanted = code.trim();
    if !wanted.is_empty() && file.contains(wanted) {
        return Ok(None);
    }
    for (id, program) in programs {
        let definition = program.trim();
        if definition.is_empty() {
            continue;
        }
        match file.matches(definition).count() {
            0 => continue,
            1 => {
                let contents = file.replacen(definition, wanted, 1);
                return Ok(Some(Placed {
                    contents,
                    placement: FilePlacement::Definition { replaced: (*id).to_string() },
                }));
            }
            n => {
                return Err(format!(
                    "program `{id}`'s code stands {n} times in the file, so where the new code goes is ambiguous"
                ));
            }
        }
    }
    Err("the file is no program of the run, and no program's code stands in it (it was edited since, or the run \
         evolved another file)"
        .into())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = "\"\"\"Doc.\"\"\"\nimport os\n\ndef f(x):\n    return x\n\ndef g():\n    return f(1)\n";
    const F: &str = "def f(x):\n    return x\n";
    const F2: &str = "def f(x):\n    return x + 1\n";

    #[test]
    fn a_definition_is_spliced_where_its_ancestor_stands() {
        let placed = place_in_target(MODULE, F2, &[("0", F)]).unwrap().unwrap();
        assert_eq!(placed.placement, FilePlacement::Definition { replaced: "0".into() });
        assert!(placed.contents.starts_with("\"\"\"Doc.\"\"\"\nimport os\n"), "{}", placed.contents);
        assert!(placed.contents.contains("return x + 1") && placed.contents.contains("def g():"));
        assert_eq!(placed.contents.len(), MODULE.len() + 4);
    }

    #[test]
    fn a_whole_file_program_replaces_the_file() {
        let placed = place_in_target(MODULE, "print(1)\n", &[("1", F), ("0", MODULE)]).unwrap().unwrap();
        assert_eq!(
            placed,
            Placed { contents: "print(1)\n".into(), placement: FilePlacement::WholeFile { replaced: "0".into() } }
        );
    }

    #[test]
    fn the_file_already_holding_the_code_changes_nothing() {
        assert_eq!(place_in_target(MODULE, MODULE, &[]), Ok(None));
        assert_eq!(place_in_target(MODULE, F, &[("0", F)]), Ok(None));
    }

    #[test]
    fn an_unknown_file_or_a_twice_standing_definition_is_refused() {
        let unknown = place_in_target("other\n", F2, &[("0", F)]).unwrap_err();
        assert!(unknown.contains("no program of the run"), "{unknown}");
        let twice = format!("{MODULE}\n{F}");
        let ambiguous = place_in_target(&twice, F2, &[("0", F)]).unwrap_err();
        assert!(ambiguous.contains("2 times"), "{ambiguous}");
    }
}
