//! The import structure of `src/`, checked. The library's modules form layers that point one
//! way (the crate map in `lib.rs`); and no file, of the library or of the binary, imports
//! another that imports it back, directly or through others: a file-level cycle. In the
//! binary, the command files import no other command file, and the tree selector no command.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// The layers of the library

/// The crate's modules, layer by layer, as the crate map lists them: a module may use the
/// modules of the layers before its own, and none of its own layer or after.
const LAYERS: &[&[&str]] = &[
    &[
        "error", "id", "clock", "naming", "js", "terminal", "process", "id_gen", "markdown",
        "in_order", "lease", "platform",
    ],
    &["json"],
    &["format"],
    &["session"],
    &["row"],
    &[
        "tree",
        "rev",
        "store",
        "discover",
        "sessions",
        "hooks",
        "summarize",
        "migrate",
        "stats",
        "bytes",
        "context",
    ],
    &["fsck", "ops", "grep", "diff"],
    &["render"],
    &["export"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The top-level modules a source file names through `crate::`, outside comments.
fn uses(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.insert(name);
        }
    }
    out
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_module_uses_only_the_layers_before_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap().as_os_str().to_str().unwrap();
        let module = first.trim_end_matches(".rs");
        // The binary is a crate of its own, over this one; this file is the check.
        if matches!(module, "cli" | "main" | "lib" | "layers") {
            continue;
        }
        let own = layer(module).unwrap_or_else(|| panic!("{module} is in no layer"));
        for used in uses(&std::fs::read_to_string(&file).unwrap()) {
            if used == module {
                continue;
            }
            match layer(&used) {
                Some(theirs) if theirs < own => {}
                // Paths such as `crate::Session`, re-exported at the root.
                None if used.starts_with(char::is_uppercase) => {}
                _ => wrong.push(format!("{} uses crate::{used}", relative.display())),
            }
        }
        checked += 1;
    }
    assert!(wrong.is_empty(), "arrows against the layers:\n{}", wrong.join("\n"));
    assert!(checked > 40, "{checked} files");
}

/// Every module the crate declares has its place in a layer.
#[test]
fn every_module_has_a_layer() {
    let lib = include_str!("lib.rs");
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("pub(crate) mod ")))
        .filter_map(|l| l.strip_suffix(';'))
        .collect();
    assert!(declared.len() > 20);
    for module in &declared {
        assert!(layer(module).is_some(), "{module} is in no layer");
    }
    // And no layer names a module the crate does not have.
    assert_eq!(LAYERS.iter().map(|l| l.len()).sum::<usize>(), declared.len());
}

/// The check finds an arrow: a path against the layers is named.
#[test]
fn uses_are_read_from_code_not_comments() {
    let text = "use crate::row::Rows;\n// crate::cli is in a comment\nlet x = crate::json::MAX; // crate::ops";
    let found: Vec<String> = uses(text).into_iter().collect();
    assert_eq!(found, ["json", "row"]);
}

// ---------------------------------------------------------------------------------------------
// The file-level import graph

/// Which crate of the package a source file belongs to: the binary is `main.rs` and `cli/`,
/// over the library, which it names `sesstree::`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Crate {
    Lib,
    Bin,
}

/// A module: its crate and its path from the crate root.
type Module = (Crate, Vec<String>);

/// A piece of Rust source as the import graph reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// The tokens of `text` that paths are made of, without comments, strings and characters.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r'
            && (at(i + 1) == '"' || (at(i + 1) == '#' && !at(i + 2).is_alphanumeric()))
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (1..=hashes).all(|h| at(j + h) == '#') {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' {
            // A character ('a', '\n', '\u{1F}') or a lifetime ('a).
            if at(i + 1) == '\\' {
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
                while at(i).is_alphanumeric() || at(i) == '_' {
                    i += 1;
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while at(i).is_alphanumeric() || at(i) == '_' {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // b"…", br"…": the string is skipped next round.
            if !((word == "b" || word == "br") && (at(i) == '"' || at(i) == '#')) {
                out.push(Token::Ident(word));
            } else if word == "br" {
                i -= 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push(Token::Path);
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(Token::Punct(c));
            }
            i += 1;
        }
    }
    out
}

/// The module a file under src/ is: `main.rs` and `cli/` the binary's, the rest the
/// library's.
fn module_of(name: &str) -> Module {
    let krate = if name == "main.rs" || name.starts_with("cli/") { Crate::Bin } else { Crate::Lib };
    let mut path: Vec<String> = name.trim_end_matches(".rs").split('/').map(String::from).collect();
    let root = path.len() == 1 && matches!(path[0].as_str(), "lib" | "main");
    if root || path.last().is_some_and(|last| last == "mod") {
        path.pop();
    }
    (krate, path)
}

/// The paths of a `use` tree or an expression starting at `tokens[i]`, each spelled out
/// (`a::{b, c::*}` is `a::b` and `a::c::*`), and where it ends.
fn path_tree(tokens: &[Token], i: usize) -> (Vec<Vec<String>>, usize) {
    match tokens.get(i) {
        Some(Token::Punct('{')) => {
            let mut all = Vec::new();
            let mut i = i + 1;
            while !matches!(tokens.get(i), Some(Token::Punct('}')) | None) {
                let (paths, mut end) = path_tree(tokens, i);
                all.extend(paths);
                if tokens.get(end) == Some(&Token::Ident("as".into())) {
                    end += 2;
                }
                i = end.max(i + 1);
            }
            (all, i + 1)
        }
        Some(Token::Punct('*')) => (vec![vec!["*".to_string()]], i + 1),
        Some(Token::Ident(name)) => {
            let more = tokens.get(i + 1) == Some(&Token::Path)
                && matches!(tokens.get(i + 2), Some(Token::Ident(_) | Token::Punct('{' | '*')));
            if !more {
                return (vec![vec![name.clone()]], i + 1);
            }
            let (rest, end) = path_tree(tokens, i + 2);
            let paths = rest
                .into_iter()
                .map(|mut path| {
                    path.insert(0, name.clone());
                    path
                })
                .collect();
            (paths, end)
        }
        _ => (Vec::new(), i + 1),
    }
}

/// What a file names and declares, as the import graph reads it.
#[derive(Default)]
struct Names {
    /// The paths of two segments or more, each with the module it is written in (the
    /// file's own, or an inline `mod` of it), and whether it is a re-export (`pub use`).
    paths: Vec<(Module, Vec<String>, bool)>,
    /// The inline modules it declares.
    inline: Vec<Module>,
    /// The child modules it declares for tests only (`#[cfg(test)] mod tests;`).
    tests: Vec<Module>,
}

/// Whether `tokens[i..]` is `#[cfg(test)]`.
fn cfg_test(tokens: &[Token], i: usize) -> bool {
    let word = |s: &str| Token::Ident(s.to_string());
    let attribute = [
        Token::Punct('#'),
        Token::Punct('['),
        word("cfg"),
        Token::Punct('('),
        word("test"),
        Token::Punct(')'),
        Token::Punct(']'),
    ];
    tokens.get(i..i + attribute.len()) == Some(&attribute[..])
}

/// Where the item starting at `tokens[i]` ends: after its `;`, or after the braces of its
/// body.
fn item_end(tokens: &[Token], mut i: usize) -> usize {
    let mut depth = 0;
    while let Some(token) = tokens.get(i) {
        i += 1;
        match token {
            Token::Punct(';') if depth == 0 => break,
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    i
}

/// The paths and modules a file of module `file` names and declares, test code left out:
/// the arrows of the graph are those of the program.
fn names_in(file: &Module, tokens: &[Token]) -> Names {
    let mut names = Names::default();
    // The inline modules open at this point, with the brace depth each opened at.
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let here = |open: &[(String, usize)], name: Option<&String>| -> Module {
        let mut path = file.1.clone();
        path.extend(open.iter().map(|(name, _)| name.clone()).chain(name.cloned()));
        (file.0, path)
    };
    let word = |i: usize, s: &str| tokens.get(i) == Some(&Token::Ident(s.to_string()));
    let mut i = 0;
    while i < tokens.len() {
        if cfg_test(tokens, i) {
            let item = i + 7;
            if word(item, "mod")
                && let Some(Token::Ident(name)) = tokens.get(item + 1)
                && tokens.get(item + 2) == Some(&Token::Punct(';'))
            {
                names.tests.push(here(&open, Some(name)));
            }
            i = item_end(tokens, item);
            continue;
        }
        match &tokens[i] {
            Token::Ident(w) if w == "mod" && tokens.get(i + 2) == Some(&Token::Punct('{')) => {
                if let Some(Token::Ident(name)) = tokens.get(i + 1) {
                    open.push((name.clone(), depth));
                    names.inline.push(here(&open, None));
                }
                i += 2;
            }
            Token::Ident(_)
                if tokens.get(i + 1) == Some(&Token::Path)
                    && (i == 0 || tokens[i - 1] != Token::Path) =>
            {
                // `pub use`, `pub(crate) use`: a name handed on.
                let reexport = i >= 2
                    && word(i - 1, "use")
                    && (word(i - 2, "pub") || tokens[i - 2] == Token::Punct(')'));
                let (paths, end) = path_tree(tokens, i);
                let module = here(&open, None);
                names.paths.extend(
                    paths
                        .into_iter()
                        .filter(|p| p.len() > 1)
                        .map(|p| (module.clone(), p, reexport)),
                );
                i = end;
            }
            Token::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Token::Punct('}') => {
                depth -= 1;
                if open.last().is_some_and(|(_, at)| *at == depth) {
                    open.pop();
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    names
}

/// The file-level import graph: for each file under src/, the files it names items of,
/// each with the paths that name them.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// The modules of the package, and what the graph needs to resolve a path to a file.
struct Modules {
    /// Each module (of a file, or inline) and the file it is in.
    files: BTreeMap<Module, String>,
    /// The names a module hands on (`pub use`): the module, the name, and the path it
    /// stands for, with the module that path is written in.
    reexports: BTreeMap<(Module, String), (Module, Vec<String>)>,
}

impl Modules {
    /// The module `path`, written in module `here`, leads to: as far as it names modules,
    /// then through the names they hand on; `None` for a path outside the package.
    fn resolve(&self, here: &Module, path: &[String], hops: usize) -> Option<Module> {
        let (krate, here) = (here.0, &here.1);
        let mut segments = path.iter().map(String::as_str);
        let mut at = match segments.next()? {
            "crate" => (krate, Vec::new()),
            "sesstree" if krate == Crate::Bin => (Crate::Lib, Vec::new()),
            "self" => (krate, here.clone()),
            "super" => (krate, here[..here.len().saturating_sub(1)].to_vec()),
            child => {
                let at = (krate, [&here[..], &[child.to_string()]].concat());
                self.files.contains_key(&at).then_some(at)?
            }
        };
        for segment in segments {
            match segment {
                "super" => {
                    at.1.pop();
                }
                "self" => {}
                name => {
                    let mut deeper = at.clone();
                    deeper.1.push(name.to_string());
                    if self.files.contains_key(&deeper) {
                        at = deeper;
                        continue;
                    }
                    // A name handed on by a `pub use` is where it comes from.
                    if let Some((there, path)) = self.reexports.get(&(at.clone(), name.into()))
                        && hops < 8
                    {
                        return self.resolve(there, path, hops + 1);
                    }
                    break;
                }
            }
        }
        Some(at)
    }
}

/// The import graph of `sources` (a file's name under src/ and its text): an arrow from a
/// file to each file whose module a path in it leads to, through `crate::`, `sesstree::`
/// (the binary's name for the library), `super::`, `self::` or a child module's name, and
/// through the names modules hand on. A module's own files (its children, declared in it)
/// are the module itself: naming them is no import, and a child may use what its parent
/// holds.
fn import_graph(sources: &[(String, String)]) -> Graph {
    let mut modules = Modules { files: BTreeMap::new(), reexports: BTreeMap::new() };
    let mut read = Vec::new();
    let mut tests = BTreeSet::new();
    for (name, text) in sources {
        let module = module_of(name);
        let names = names_in(&module, &tokens(text));
        modules.files.insert(module.clone(), name.clone());
        for inline in &names.inline {
            modules.files.insert(inline.clone(), name.clone());
        }
        for (here, path, reexport) in &names.paths {
            if *reexport && let Some(last) = path.last() {
                modules
                    .reexports
                    .insert((here.clone(), last.clone()), (here.clone(), path.clone()));
            }
        }
        tests.extend(names.tests);
        read.push((module, name, names.paths));
    }
    let test_file = |m: &Module| tests.iter().any(|t| t.0 == m.0 && m.1.starts_with(&t.1));
    let mut graph = Graph::new();
    for (module, name, paths) in read {
        if test_file(&module) {
            continue;
        }
        let arrows = graph.entry(name.clone()).or_default();
        for (here, path, _) in paths {
            let Some(target) = modules.resolve(&here, &path, 0) else { continue };
            let own = target.0 == module.0 && target.1.starts_with(&module.1);
            if own || test_file(&target) {
                continue;
            }
            if let Some(file) = modules.files.get(&target) {
                arrows.entry(file.clone()).or_default().insert(path.join("::"));
            }
        }
    }
    graph
}

/// The import cycles of `graph`, each as the files of one loop, the first file again at the
/// end: one loop for each group of files that import each other.
fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut done: BTreeSet<&String> = BTreeSet::new();
    for start in graph.keys() {
        if done.contains(start) {
            continue;
        }
        // The shortest way from `start` back to itself, breadth first.
        let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut back = None;
        while let Some(file) = queue.pop_front() {
            for next in graph.get(file).into_iter().flat_map(BTreeMap::keys) {
                if next == start {
                    back = Some(file);
                    break;
                }
                if !came_from.contains_key(next) {
                    came_from.insert(next, file);
                    queue.push_back(next);
                }
            }
            if back.is_some() {
                break;
            }
        }
        let Some(mut file) = back else { continue };
        let mut cycle = vec![start.clone()];
        while file != start {
            cycle.push(file.clone());
            file = came_from[file];
        }
        cycle.push(start.clone());
        cycle.reverse();
        done.extend(graph.keys().filter(|k| cycle.contains(k)));
        out.push(cycle);
    }
    out
}

/// Every `.rs` file under `src/`: its path under `src/` (with `/`) and its text.
fn src_files() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut named: Vec<(String, String)> = files
        .iter()
        .map(|file| {
            let name = file.strip_prefix(&src).unwrap().components();
            let name: Vec<&str> = name.map(|c| c.as_os_str().to_str().unwrap()).collect();
            (name.join("/"), std::fs::read_to_string(file).unwrap())
        })
        .collect();
    named.sort();
    named
}

/// The cycles of `graph`, each as its loop of files and, for each arrow, the paths that make it.
fn shown(graph: &Graph, cycles: &[Vec<String>]) -> String {
    let mut out = String::new();
    for cycle in cycles {
        out.push_str(&format!("cycle: {}\n", cycle.join(" -> ")));
        for arrow in cycle.windows(2) {
            let paths: Vec<&str> = graph[&arrow[0]][&arrow[1]].iter().map(String::as_str).collect();
            out.push_str(&format!("    {} -> {}: {}\n", arrow[0], arrow[1], paths.join(", ")));
        }
    }
    out
}

#[test]
fn no_file_imports_another_in_a_cycle() {
    let files = src_files();
    assert!(files.iter().any(|(name, _)| name == "cli/commands/mod.rs"), "the binary is read");
    let graph = import_graph(&files);
    assert!(graph.len() > 80, "{} files", graph.len());
    let cycles = cycles(&graph);
    assert!(cycles.is_empty(), "files that import each other:\n{}", shown(&graph, &cycles));
}

/// The files under `dir` (a folder under src/) that a file under it imports, other than itself.
fn arrows_within<'g>(graph: &'g Graph, from: &str, to: &str) -> Vec<(&'g str, &'g str, &'g str)> {
    let mut found = Vec::new();
    for (file, arrows) in graph.iter().filter(|(file, _)| file.starts_with(from)) {
        for (target, paths) in arrows.iter().filter(|(target, _)| target.starts_with(to)) {
            found.extend(paths.iter().map(|p| (file.as_str(), target.as_str(), p.as_str())));
        }
    }
    found
}

/// The command files are the leaves of the binary: what two of them share lives in `cli/`
/// (`args`, `time`, `signals`, `ui`, `write`) or in the library, and `commands/mod.rs` holds
/// only the command enum and its dispatch.
#[test]
fn command_files_import_no_other_command_file() {
    let graph = import_graph(&src_files());
    let wrong: Vec<String> = arrows_within(&graph, "cli/commands/", "cli/commands/")
        .into_iter()
        .filter(|(file, _, _)| !file.ends_with("/mod.rs"))
        .map(|(file, target, path)| format!("{file} -> {target}: {path}"))
        .collect();
    assert!(wrong.is_empty(), "command files importing command files:\n{}", wrong.join("\n"));
}

/// The tree selector runs the library's workflows (through `cli/write.rs`), not the commands;
/// its preview prints an entry as `show` does, through the output layer (`cli::readable`).
#[test]
fn the_selector_imports_no_command() {
    let graph = import_graph(&src_files());
    let wrong: Vec<String> = arrows_within(&graph, "cli/selector/", "cli/commands/")
        .into_iter()
        .map(|(file, target, path)| format!("{file} -> {target}: {path}"))
        .collect();
    assert!(wrong.is_empty(), "the selector imports commands:\n{}", wrong.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Reading members by name

/// The folders and files where what an entry or a header says may be read member by member:
/// the payload and header views and their fills (`format/`), the context builder, which ports
/// the agents' JavaScript over parsed values (`context`), and JSON as bytes (`json`). Every
/// other reader goes through them.
const MEMBER_READERS: &[&str] = &["format/", "context/", "context.rs", "json/", "json.rs"];

/// How many `.get("…")` calls may remain outside [`MEMBER_READERS`] (issue 45: fewer than 25).
const MAX_MEMBER_GETS: usize = 24;

/// How far above a `.get("…")` call the comment that says why it stays may be.
const WHY_WITHIN: usize = 4;

/// The lines of `text` outside its `#[cfg(test)]` items, numbered from 1: an item ends at its
/// first line when that ends with `;`, else at the closing brace rustfmt puts at the
/// attribute's indentation.
fn program_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, line)| (i + 1, line));
    while let Some((number, line)) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            out.push((number, line));
            continue;
        }
        let indent = &line[..line.len() - line.trim_start().len()];
        let close = format!("{indent}}}");
        let mut item = lines.by_ref().map(|(_, l)| l).skip_while(|l| {
            let l = l.trim_start();
            l.starts_with("#[") || l.starts_with("///")
        });
        if item.next().is_some_and(|first| !first.trim_end().ends_with(';')) {
            item.find(|l| l.trim_end() == close);
        }
    }
    out
}

/// The `.get("…")` calls of the program outside [`MEMBER_READERS`] and test code, as
/// `file:line`, and those of them with no `//` comment on their line or in the
/// [`WHY_WITHIN`] lines above.
fn member_gets(files: &[(String, String)]) -> (Vec<String>, Vec<String>) {
    let mut tests = Vec::new();
    for (name, text) in files {
        let module = module_of(name);
        tests.extend(names_in(&module, &tokens(text)).tests);
    }
    let (mut calls, mut unexplained) = (Vec::new(), Vec::new());
    for (name, text) in files {
        let module = module_of(name);
        let test_file = tests.iter().any(|t| t.0 == module.0 && module.1.starts_with(&t.1));
        if test_file || MEMBER_READERS.iter().any(|reader| name.starts_with(reader)) {
            continue;
        }
        let lines = program_lines(text);
        for (at, (number, line)) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            for _ in code.matches(".get(\"") {
                calls.push(format!("{name}:{number}"));
                let above = &lines[at.saturating_sub(WHY_WITHIN)..=at];
                let comment = |l: &&(usize, &str)| {
                    l.1.contains("// ") && !l.1.trim_start().starts_with("///")
                };
                if !above.iter().any(|l| comment(&l)) {
                    unexplained.push(format!("{name}:{number}"));
                }
            }
        }
    }
    (calls, unexplained)
}

/// What an entry or a header says is read through the payload and header views, not picked
/// out of a parsed value member by member: the few `.get("…")` calls left (spans for a
/// byte-preserving edit, members copied as they are, JSON that is no entry) each say why.
#[test]
fn few_readers_pick_members_by_name_and_each_says_why() {
    let (calls, unexplained) = member_gets(&src_files());
    assert!(
        calls.len() <= MAX_MEMBER_GETS,
        "{} `.get(\"…\")` calls outside the views, at most {MAX_MEMBER_GETS}:\n{}",
        calls.len(),
        calls.join("\n")
    );
    assert!(
        unexplained.is_empty(),
        "`.get(\"…\")` calls that say not why:\n{}",
        unexplained.join("\n")
    );
}

#[test]
fn member_gets_are_counted_in_the_program_and_outside_the_views() {
    let files: Vec<(String, String)> = [
        ("lib.rs", "pub mod a; pub mod format;\n#[cfg(test)]\nmod t;"),
        ("a.rs", "fn f(v: &V) {\n    // Spans, for an edit.\n    v.get(\"x\");\n    v.get(\"y\"); // copied\n\n\n\n\n    v.get(\"z\");\n    v.get(k);\n}\n#[cfg(test)]\nmod tests {\n    fn g() {\n        v.get(\"t\");\n    }\n}\nfn h() {\n    v.get(\"w\");\n}"),
        ("format/mod.rs", "fn f() { v.get(\"f\"); }"),
        ("t.rs", "fn f() { v.get(\"t\"); }"),
    ]
    .iter()
    .map(|(name, text)| (name.to_string(), text.to_string()))
    .collect();
    let (calls, unexplained) = member_gets(&files);
    assert_eq!(calls, ["a.rs:3", "a.rs:4", "a.rs:9", "a.rs:19"]);
    assert_eq!(unexplained, ["a.rs:9", "a.rs:19"]);
}

/// The graph of a few files given as text.
fn graph_of(files: &[(&str, &str)]) -> Graph {
    let files: Vec<(String, String)> =
        files.iter().map(|(name, text)| (name.to_string(), text.to_string())).collect();
    import_graph(&files)
}

fn arrows(graph: &Graph, from: &str) -> Vec<String> {
    graph[from].keys().cloned().collect()
}

#[test]
fn a_cycle_is_found_and_shown_with_the_paths_that_make_it() {
    let graph = graph_of(&[
        ("lib.rs", "pub mod a;"),
        ("a/mod.rs", "pub mod b; pub mod c; pub mod d;"),
        ("a/b.rs", "use crate::a::c::Thing;"),
        ("a/c.rs", "fn f() { super::d::g(); }"),
        ("a/d.rs", "use super::{b::Other, c};"),
    ]);
    let cycles = cycles(&graph);
    assert_eq!(cycles, [["a/b.rs", "a/c.rs", "a/d.rs", "a/b.rs"]]);
    assert_eq!(
        shown(&graph, &cycles),
        "cycle: a/b.rs -> a/c.rs -> a/d.rs -> a/b.rs\n    a/b.rs -> a/c.rs: crate::a::c::Thing\n    \
         a/c.rs -> a/d.rs: super::d::g\n    a/d.rs -> a/b.rs: super::b::Other\n"
    );
}

#[test]
fn a_module_naming_its_own_files_is_no_arrow_but_a_child_using_its_parent_is() {
    let graph = graph_of(&[
        ("main.rs", "mod cli; fn main() { cli::run(); }"),
        ("cli/mod.rs", "pub mod commands; pub use commands::Command; use self::commands::run;"),
        ("cli/commands/mod.rs", "mod log; pub fn run() { log::run() }"),
        ("cli/commands/log.rs", "use super::super::Ctx; use crate::cli::commands::Command;"),
    ]);
    assert_eq!(arrows(&graph, "main.rs"), Vec::<String>::new());
    assert_eq!(arrows(&graph, "cli/mod.rs"), Vec::<String>::new());
    assert_eq!(arrows(&graph, "cli/commands/log.rs"), ["cli/commands/mod.rs", "cli/mod.rs"]);
    assert!(cycles(&graph).is_empty());
}

#[test]
fn paths_are_read_from_code_only_and_resolved_through_re_exports() {
    let graph = graph_of(&[
        ("lib.rs", "pub mod row; pub mod json; pub use row::Rows;"),
        ("row/mod.rs", "pub mod read; pub use read::Rows;"),
        ("row/read.rs", "pub struct Rows;"),
        ("json.rs", "use crate::Rows; // crate::row::gist\nconst S: &str = \"crate::x::y\";"),
        ("main.rs", "mod cli;"),
        ("cli/mod.rs", "use sesstree::json::Thing; #[cfg(test)]\nmod tests { use crate::y::z; }"),
    ]);
    // Through lib.rs and row/mod.rs, to the file that defines it.
    assert_eq!(arrows(&graph, "json.rs"), ["row/read.rs"]);
    // The binary names the library `sesstree`; its tests are not the program.
    assert_eq!(arrows(&graph, "cli/mod.rs"), ["json.rs"]);
}

#[test]
fn use_trees_are_spelled_out() {
    let tree = tokens("a::{b::{C, d::*}, e as f, self}");
    let (paths, end) = path_tree(&tree, 0);
    let paths: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(paths, ["a::b::C", "a::b::d::*", "a::e", "a::self"]);
    assert_eq!(end, tree.len());
    // Lifetimes, characters and raw strings are no paths.
    let code = tokens("fn f<'a>(x: &'a str) { let c = '{'; let r = r#\"x::y\"#; }");
    assert!(!code.contains(&Token::Path));
}
