//! The page's files, compiled into the binary, and the single-file page built
//! from them.
//!
//! The page is plain HTML, CSS and JavaScript modules with no build step. Its
//! session model is the project's JavaScript implementation of
//! `fnv1a-utf16-v1` (`implementations/js/`: `session.mjs`, `fnv1a_utf16_v1.mjs`,
//! `json.mjs`), the very files the JavaScript adapter runs through the
//! conformance suite, embedded here as they are.
//!
//! [`standalone_html`] makes one HTML file with everything inline (styles and
//! a single module script), which a browser opens from a `file://` URL, where
//! a module may not import another file. It wraps each module in a function
//! whose value is the module's exports and turns its `import` lines into reads
//! of those values; it understands only the `import` and `export` forms these
//! files use, and refuses any other (a test runs it on every file).

use std::fmt::Write as _;
use std::path::Path;

/// One file of the page: its path under the site's root, content type and text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SiteFile {
    /// The path under the site's root, without a leading `/` (`index.html`,
    /// `assets/app.js`, ...).
    pub path: &'static str,
    /// The `Content-Type` it is served with.
    pub content_type: &'static str,
    /// The file's text.
    pub text: &'static str,
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// One of the JavaScript modules of `implementations/js/`, served as `assets/js/<name>`.
macro_rules! shared_module {
    ($name:literal) => {
        SiteFile {
            path: concat!("assets/js/", $name),
            content_type: JS,
            text: include_str!(concat!("../../../implementations/js/", $name)),
        }
    };
}

/// The page's files, as served and exported (the JavaScript modules in
/// dependency order: each imports only files listed before it).
pub const FILES: [SiteFile; 6] = [
    SiteFile {
        path: "index.html",
        content_type: HTML,
        text: include_str!("../assets/index.html"),
    },
    SiteFile {
        path: "assets/style.css",
        content_type: CSS,
        text: include_str!("../assets/style.css"),
    },
    shared_module!("fnv1a_utf16_v1.mjs"),
    shared_module!("json.mjs"),
    shared_module!("session.mjs"),
    SiteFile {
        path: "assets/app.js",
        content_type: JS,
        text: include_str!("../assets/app.js"),
    },
];

/// The name [`export_site`] gives the single-file page.
pub const STANDALONE_NAME: &str = "bloomproof-explorer.html";

/// The file served at `path` (`/` is `index.html`).
pub fn file(path: &str) -> Option<&'static SiteFile> {
    let path = path.strip_prefix('/').unwrap_or(path);
    let path = if path.is_empty() { "index.html" } else { path };
    FILES.iter().find(|file| file.path == path)
}

/// The module variable of a file in the bundle: `__module_session` for
/// `assets/js/session.mjs`.
fn module_var(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name);
    format!("__module_{stem}")
}

/// `{ a, b as c }` as a destructuring pattern `{ a, b: c }`.
fn import_pattern(names: &str, line: &str) -> Result<String, String> {
    let mut parts = Vec::new();
    for name in names
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
    {
        let words: Vec<&str> = name.split_whitespace().collect();
        match words.as_slice() {
            [one] => parts.push((*one).to_owned()),
            [from, "as", to] => parts.push(format!("{from}: {to}")),
            _ => return Err(format!("cannot read the import {line:?}")),
        }
    }
    Ok(format!("{{ {} }}", parts.join(", ")))
}

/// The exported name of a line that starts with `export `, and the line without it.
fn export_line(line: &str) -> Result<(String, &str), String> {
    let rest = &line["export ".len()..];
    let after = ["const ", "let ", "class ", "function ", "async function "]
        .iter()
        .find_map(|keyword| rest.strip_prefix(keyword))
        .ok_or_else(|| format!("cannot read the export {line:?}"))?;
    let name: String = after
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
        .collect();
    if name.is_empty() {
        return Err(format!("cannot read the export {line:?}"));
    }
    Ok((name, rest))
}

/// One module as a function whose value is its exports.
fn wrap_module(file: &SiteFile, known: &[&str]) -> Result<String, String> {
    let var = module_var(file.path);
    let mut body = String::new();
    let mut exports = Vec::new();
    let mut lines = file.text.lines();
    while let Some(first) = lines.next() {
        // An import may span lines, up to the `;` that ends it.
        let mut joined = first.to_owned();
        if first.starts_with("import ") {
            while !joined.trim_end().ends_with(';') {
                let next = lines
                    .next()
                    .ok_or_else(|| format!("{}: an import has no end: {first:?}", file.path))?;
                joined.push(' ');
                joined.push_str(next.trim());
            }
        }
        let line = joined.as_str();
        if let Some(rest) = line.strip_prefix("import ") {
            let (what, from) = rest
                .rsplit_once(" from ")
                .ok_or_else(|| format!("{}: cannot read the import {line:?}", file.path))?;
            let target = from
                .trim_end_matches(';')
                .trim_matches(|c| c == '\'' || c == '"');
            let target = target.strip_prefix("./").unwrap_or(target);
            let dir = file.path.rsplit_once('/').map_or("", |(dir, _)| dir);
            let resolved = if dir.is_empty() {
                target.to_owned()
            } else {
                format!("{dir}/{target}")
            };
            if !known.contains(&resolved.as_str()) {
                return Err(format!(
                    "{}: imports {resolved}, which is not a module listed before it",
                    file.path
                ));
            }
            let pattern = match what.strip_prefix("* as ") {
                Some(name) => name.trim().to_owned(),
                None => {
                    let names = what
                        .trim()
                        .strip_prefix('{')
                        .and_then(|names| names.strip_suffix('}'))
                        .ok_or_else(|| format!("{}: cannot read the import {line:?}", file.path))?;
                    import_pattern(names, line)
                        .map_err(|error| format!("{}: {error}", file.path))?
                }
            };
            let _ = writeln!(body, "const {pattern} = {};", module_var(&resolved));
        } else if line.starts_with("export ") {
            let (name, rest) =
                export_line(line).map_err(|error| format!("{}: {error}", file.path))?;
            exports.push(name);
            body.push_str(rest);
            body.push('\n');
        } else {
            body.push_str(line);
            body.push('\n');
        }
    }
    Ok(format!(
        "const {var} = (() => {{\n{body}return Object.freeze({{ {} }});\n}})();\n",
        exports.join(", ")
    ))
}

/// The whole page as one HTML file: the styles in a `<style>`, every module
/// in one inline `<script type="module">` (see the module documentation).
pub fn standalone_html() -> Result<String, String> {
    let index = FILES[0].text;
    let mut script = String::new();
    let mut known: Vec<&str> = Vec::new();
    for file in FILES.iter().filter(|file| file.content_type == JS) {
        script.push_str(&wrap_module(file, &known)?);
        known.push(file.path);
    }
    let style = file("assets/style.css").map_or("", |file| file.text);
    for (what, text) in [("the script", script.as_str()), ("the styles", style)] {
        if text.to_ascii_lowercase().contains("</script")
            || text.to_ascii_lowercase().contains("</style")
        {
            return Err(format!(
                "{what} contain a closing tag and cannot be inlined"
            ));
        }
    }
    let css_link = r#"<link rel="stylesheet" href="assets/style.css">"#;
    let js_link = r#"<script type="module" src="assets/app.js"></script>"#;
    for link in [css_link, js_link] {
        if index.matches(link).count() != 1 {
            return Err(format!("index.html must hold {link} exactly once"));
        }
    }
    Ok(index
        .replace(css_link, &format!("<style>\n{style}</style>"))
        .replace(
            js_link,
            &format!("<script type=\"module\">\n{script}</script>"),
        ))
}

/// Writes the page as static files into `dir`: every file of [`FILES`] (the
/// page as `bloomproof explore` serves it, for any static file server) and
/// [`STANDALONE_NAME`], the single-file page that also works opened as a file.
///
/// `dir` is created when missing; a folder that exists and is not empty is
/// refused unless `force`, which overwrites the page's files and leaves others.
/// Returns the paths written, relative to `dir`.
pub fn export_site(dir: &Path, force: bool) -> Result<Vec<String>, String> {
    let standalone = standalone_html()?;
    bloomproof_wire::export::prepare_folder(dir, force)?;
    let mut written = Vec::new();
    let files = FILES
        .iter()
        .map(|file| (file.path, file.text))
        .chain([(STANDALONE_NAME, standalone.as_str())]);
    for (path, text) in files {
        bloomproof_wire::export::write_inside(dir, path, text.as_bytes())?;
        written.push(path.to_owned());
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_bundles_and_the_page_links_them() {
        let page = standalone_html().unwrap();
        assert!(page.contains("const __module_session = (() => {"));
        assert!(
            page.contains(
                "const { fnvPositions, unitsOf, stringOfUnits } = __module_fnv1a_utf16_v1;"
            )
        );
        assert!(!page.contains("src=\"assets/app.js\""));
        assert!(!page.contains("href=\"assets/style.css\""));
        for line in page.lines() {
            assert!(
                !line.starts_with("import ") && !line.starts_with("export "),
                "{line}"
            );
        }
    }

    #[test]
    fn unknown_module_syntax_is_refused() {
        let file = |text| SiteFile {
            path: "assets/js/x.mjs",
            content_type: JS,
            text,
        };
        for text in [
            "export default 1;\n",
            "export { a };\n",
            "import x from './y.mjs';\n",
            "import { a } from './unknown.mjs';\n",
            "import {\n  a,\n",
        ] {
            assert!(
                wrap_module(&file(text), &["assets/js/y.mjs"]).is_err(),
                "{text}"
            );
        }
        let wrapped = wrap_module(
            &file("import {\n  a, b as c,\n} from './y.mjs';\nexport function f() { return a + c; }\n"),
            &["assets/js/y.mjs"],
        )
        .unwrap();
        assert!(wrapped.contains("const { a, b: c } = __module_y;"));
        assert!(wrapped.contains("return Object.freeze({ f });"));
    }

    #[test]
    fn paths() {
        assert_eq!(file("/").unwrap().path, "index.html");
        assert_eq!(file("/assets/js/session.mjs").unwrap().content_type, JS);
        assert!(file("/api/apply").is_none());
        assert!(file("/assets/../index.html").is_none());
    }

    #[test]
    fn export_refuses_a_full_folder_without_force() {
        let dir = std::env::temp_dir().join(format!("bloomproof-site-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let written = export_site(&dir, false).unwrap();
        assert_eq!(written.len(), FILES.len() + 1);
        assert!(dir.join("assets/js/session.mjs").is_file());
        assert!(export_site(&dir, false).unwrap_err().contains("--force"));
        assert_eq!(export_site(&dir, true).unwrap(), written);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
