//! `docs/cli.md` is the table as Markdown: the committed page is what `to_markdown` renders.

#[test]
fn docs_cli_md_is_the_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/cli.md");
    let rendered = evodb_cli_spec::to_markdown();
    if std::env::var_os("UPDATE_DOCS").is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::write(path, &rendered).expect("docs/cli.md is writable");
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == rendered,
        "docs/cli.md is not the command-line table as Markdown: run \
         `UPDATE_DOCS=1 cargo test -p evodb-cli-spec --test docs` and commit docs/cli.md"
    );
}
