//! Sessions: the spec as it stands (weights, GA
//! parameters and pins included) and the engine's state, in versioned TOML,
//! so that resuming continues exactly where the run stopped. Saved
//! atomically; a corrupt, truncated or future-version file is refused with a
//! clear message and never overwritten.

use crate::atomic::write_atomic;
use crate::ga::Engine;
use crate::run::checkpoint::EngineState;
use crate::spec::{Cluster, Spec, check_feasible, live_spec};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The session format this build writes and the newest it reads.
pub const VERSION: u32 = 1;
/// A session holds the population: larger than a spec (a 1024-PC session
/// is a few MiB), still bounded, since TOML takes ~90x its size to parse.
pub(crate) const MAX_SESSION_BYTES: u64 = 32 << 20;

#[derive(Debug, Error)]
pub enum SessionError {
    /// `message` names the file and the reason.
    #[error("{message}")]
    Read { path: String, message: String },
    #[error(
        "{path}: written by a newer fnn-tui (session version {found}; this one reads up to {VERSION}); not opened, and it will not be overwritten"
    )]
    Future { path: String, found: i64 },
    #[error("{path}: not an fnn-tui session ({message}); not opened, and it will not be overwritten")]
    Corrupt { path: String, message: String },
    #[error("{path}: cannot save: {message}")]
    Write { path: String, message: String },
    #[error("`{0}` is a shipped example's name, which always opens the example: choose another name")]
    ExampleName(String),
}

/// Unknown keys are refused: a session is fnn-tui's own file, and a key
/// it does not know is damage (or megabytes of junk), not a newer field.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Session {
    pub version: u32,
    pub name: String,
    /// Set in recovery files only: whether the run held edits of the
    /// user's (pins, forbids, weights...), which another run of the name
    /// must never replace. Absent in older files, which are kept too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_edits: Option<bool>,
    pub spec: Spec,
    pub engine: EngineState,
}

/// A session that stays over the size a session may be even with its
/// best member alone.
#[derive(Debug, Error)]
#[error(
    "the session would be {} even with one member, more than the {} a session may be",
    crate::budget::human(*bytes),
    crate::budget::human(*limit)
)]
pub(crate) struct TooBig {
    pub bytes: u64,
    pub limit: u64,
}

/// The top-level `version = N` line, read before the first table header
/// (where TOML's top-level keys are): the version decides how the rest is
/// read, and parsing 32 MiB of TOML only for it costs seconds.
fn top_level_version(text: &str) -> Option<i64> {
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            return None;
        }
        if let Some(rest) = line.strip_prefix("version") {
            let value = rest.trim_start().strip_prefix('=')?.trim();
            let value = value.split('#').next()?.trim();
            return value.parse().ok();
        }
    }
    None
}

/// Whether the recovery file `path` may hold edits of the user's: only a
/// file that says it holds none (`user_edits = false`, before its first
/// table) is a search's progress alone, which another run may replace.
pub fn holds_user_edits(path: &Path) -> bool {
    let Ok(text) = crate::input::read_text_limited(path, MAX_SESSION_BYTES) else {
        return true;
    };
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            break;
        }
        if let Some(rest) = line.strip_prefix("user_edits") {
            let value = rest.trim_start().strip_prefix('=').unwrap_or("").trim();
            return value.split('#').next().map(str::trim) != Some("false");
        }
    }
    true
}

impl crate::run::Run {
    /// A saved run, continuing where it stopped.
    pub fn resume(session: &Session) -> Result<crate::run::Run, SessionError> {
        let (_, engine) = session.restore()?;
        Ok(crate::run::Run::of_engine(session.spec.clone(), engine))
    }

    /// The run as a session named `name`.
    pub fn session(&self, name: &str) -> Session {
        Session::capture(name, self.spec(), self.engine())
    }
}

impl Session {
    /// Captures an engine run; `spec` is the spec it was started from, and
    /// its weights, GA parameters and pins are taken from the engine.
    pub fn capture(name: &str, spec: &Spec, engine: &Engine) -> Session {
        Session {
            version: VERSION,
            name: name.to_string(),
            user_edits: None,
            spec: live_spec(spec, engine.cluster()),
            engine: engine.state(),
        }
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a session always serializes")
    }

    /// Parses a session, checking the version before anything else.
    pub fn from_toml(text: &str, path: &str) -> Result<Session, SessionError> {
        let corrupt = |message: String| SessionError::Corrupt {
            path: path.to_string(),
            message,
        };
        let version = match top_level_version(text) {
            Some(v) => v,
            // Not in the plain form fnn-tui writes: ask the TOML parser
            // (which reads the whole file, a second parse).
            None => {
                let value: toml::Table = text
                    .parse()
                    .map_err(|e: toml::de::Error| corrupt(one_line(&e.to_string())))?;
                value
                    .get("version")
                    .and_then(|v| v.as_integer())
                    .ok_or_else(|| corrupt("no `version` field".into()))?
            }
        };
        if version > VERSION as i64 {
            return Err(SessionError::Future {
                path: path.to_string(),
                found: version,
            });
        }
        if version < 1 {
            return Err(corrupt(format!("version {version} is not a session version")));
        }
        let mut session: Session = toml::from_str(text).map_err(|e| corrupt(one_line(&e.to_string())))?;
        session.spec.source = path.to_string();
        session.spec.base_dir = Path::new(path)
            .parent()
            .and_then(|d| crate::input::Folder::open(d).ok());
        Ok(session)
    }

    pub fn load(path: &Path) -> Result<Session, SessionError> {
        let shown = crate::input::shown(path);
        let read = |e: crate::input::InputError| SessionError::Read {
            path: shown.clone(),
            message: e.to_string(),
        };
        let (folder, file) = crate::input::open_user_file_and_folder(path, MAX_SESSION_BYTES).map_err(read)?;
        let text = crate::input::read_opened(file, &shown, MAX_SESSION_BYTES).map_err(read)?;
        let mut session = Session::from_toml(&text, &shown)?;
        // The folder the file was read from, not one found again by name.
        session.spec.base_dir = Some(folder);
        Ok(session)
    }

    /// The cluster and the engine, continuing exactly where the run stopped.
    pub fn restore(&self) -> Result<(Cluster, Engine), SessionError> {
        let cluster = self.cluster()?;
        let engine =
            Engine::from_state(cluster.clone(), &self.engine).map_err(|e| self.corrupt(format!("engine: {e}")))?;
        Ok((cluster, engine))
    }

    /// The cluster and an engine holding only what its best design needs
    /// (the best member, and the first, which is the best while no design
    /// was valid): for commands that read the design and not the run.
    /// Every member is still checked. At 16,384 PCs this skips a full
    /// evaluation (0.1 s) per member.
    pub fn restore_best(&self) -> Result<(Cluster, Engine), SessionError> {
        self.check()?;
        let mut state = self.engine.clone();
        state.population.truncate(1);
        let cluster = self.cluster()?;
        let engine = Engine::from_state(cluster.clone(), &state).map_err(|e| self.corrupt(format!("engine: {e}")))?;
        Ok((cluster, engine))
    }

    /// Whether `restore` would succeed, without evaluating the members.
    pub fn check(&self) -> Result<(), SessionError> {
        let cluster = self.cluster()?;
        Engine::check_state(cluster, &self.engine).map_err(|e| self.corrupt(format!("engine: {e}")))
    }

    fn cluster(&self) -> Result<Cluster, SessionError> {
        let cluster = self.spec.resolve().map_err(|e| self.corrupt(e.to_string()))?;
        check_feasible(&cluster).map_err(|e| self.corrupt(e.to_string()))?;
        Ok(cluster)
    }

    fn corrupt(&self, message: String) -> SessionError {
        SessionError::Corrupt {
            path: self.spec.source.clone(),
            message,
        }
    }

    /// Writes the session atomically. An existing file is replaced only if
    /// it is a session this build can read: a corrupt or future-version file
    /// (or anything else) is never overwritten.
    pub fn save(&self, path: &Path) -> Result<(), SessionError> {
        let r = self.save_checked(path);
        match &r {
            Ok(()) => tracing::info!(path = %path.display(), generation = self.engine.generation, "session saved"),
            Err(e) => tracing::error!("{e}"),
        }
        r
    }

    fn save_checked(&self, path: &Path) -> Result<(), SessionError> {
        let shown = path.display().to_string();
        if path.exists() {
            Session::load(path)
                .and_then(|s| s.check())
                .map_err(|e| SessionError::Write {
                    path: shown.clone(),
                    message: format!("the file there is not a session this version can replace ({e})"),
                })?;
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::fs::make_dirs(dir).map(drop).map_err(|e| SessionError::Write {
                path: shown.clone(),
                message: e.to_string(),
            })?;
        }
        let text = self.fitting_toml(MAX_SESSION_BYTES).map_err(|e| SessionError::Write {
            path: shown.clone(),
            message: e.to_string(),
        })?;
        write_atomic(path, text.as_bytes()).map_err(|e| SessionError::Write {
            path: shown,
            message: e.to_string(),
        })
    }

    /// The session as TOML of at most `limit` bytes, so it can be opened
    /// again (a larger one was written and then refused on reading). At
    /// thousands of PCs a member is hundreds of KB of TOML: only the best
    /// members that fit are kept, and the resumed run fills its
    /// population up again.
    pub(crate) fn fitting_toml(&self, limit: u64) -> Result<String, TooBig> {
        let mut text = self.to_toml();
        let all = self.engine.population.len();
        let mut kept = all;
        while text.len() as u64 > limit && kept > 1 {
            let share = limit as f64 * 0.95 / text.len() as f64;
            kept = ((kept as f64 * share) as usize).clamp(1, kept - 1);
            let mut fewer = self.clone();
            fewer.engine.population.truncate(kept);
            text = fewer.to_toml();
        }
        if text.len() as u64 > limit {
            return Err(TooBig {
                bytes: text.len() as u64,
                limit,
            });
        }
        if kept < all {
            tracing::warn!(kept, all, "session trimmed to its best members to stay readable");
        }
        Ok(text)
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Where sessions live: the data folder of `directories`, and `./saves/`.
pub fn session_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = data_dir() {
        dirs.push(d.clone());
        dirs.push(d.join("recovery"));
    }
    dirs.push(PathBuf::from("saves"));
    dirs
}

/// Where the designer's autosave keeps a recovery file per session name: the data
/// folder's `recovery/` (the open list shows them).
pub fn recovery_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("recovery"))
}

/// The user's session folder (`$XDG_DATA_HOME/fnn-tui/sessions` on Linux).
pub fn data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "fnn-tui").map(|p| p.data_dir().join("sessions"))
}

/// A saved session found on disk.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionEntry {
    pub name: String,
    pub path: PathBuf,
    /// A shipped example built into the binary (no file: `path` is empty).
    pub example: bool,
}

/// What the open list shows of a session file: its generation, whether
/// its best design was valid, and how long ago it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionSummary {
    pub generation: u64,
    pub valid: bool,
    pub age: Option<std::time::Duration>,
    /// A shipped example, unmodified (opened read-only as a copy).
    pub shipped: bool,
}

/// Reads a session file's summary (`None` if it is not a readable session).
pub fn summary(path: &Path) -> Option<SessionSummary> {
    let text = crate::input::read_text_limited(path, MAX_SESSION_BYTES).ok()?;
    let age = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok());
    summary_of(&text, age)
}

/// What the open list shows of an entry: a file's summary, or a built-in
/// example's (which has no age).
pub fn entry_summary(e: &SessionEntry) -> Option<SessionSummary> {
    match e.example {
        true => EXAMPLES
            .iter()
            .find(|(n, _)| *n == e.name)
            .and_then(|(_, text)| summary_of(text, None)),
        false => summary(&e.path),
    }
}

fn summary_of(text: &str, age: Option<std::time::Duration>) -> Option<SessionSummary> {
    let value: toml::Table = text.parse().ok()?;
    let engine = value.get("engine")?.as_table()?;
    let generation = engine.get("generation")?.as_integer()? as u64;
    // The last generation's statistics say whether its best was valid;
    // before the first generation there are none, and a design valid from
    // the start (a construction) has its first valid generation set.
    let valid = match engine.get("history")?.as_array()?.last() {
        Some(last) => {
            let last = last.as_table()?;
            last.get("full")?.as_bool()? && last.get("best_uncovered")?.as_integer()? == 0
        }
        None => engine.get("first_valid").is_some_and(|v| v.as_integer().is_some()),
    };
    Some(SessionSummary {
        generation,
        valid,
        age,
        shipped: is_example(text),
    })
}

/// "3 min ago", "5 h ago", "2 d ago".
pub fn ago(age: std::time::Duration) -> String {
    let s = age.as_secs();
    match s {
        0..60 => "just now".into(),
        60..3600 => format!("{} min ago", s / 60),
        3600..86400 => format!("{} h ago", s / 3600),
        _ => format!("{} d ago", s / 86400),
    }
}

/// Whether `path` is a recovery file (in a `recovery` folder, where the
/// designer's autosave writes them): the open list may delete those.
pub fn is_recovery_file(path: &Path) -> bool {
    path.parent()
        .and_then(|d| d.file_name())
        .is_some_and(|n| n == "recovery")
}

/// Sessions in the session folders, by name.
pub fn list_sessions(dirs: &[PathBuf]) -> Vec<SessionEntry> {
    let mut out: Vec<SessionEntry> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|path| SessionEntry {
            name: path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            path,
            example: false,
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name).then(a.path.cmp(&b.path)));
    out
}

/// What the open list offers: the sessions in `dirs`, and every shipped
/// example, built in, wherever the binary runs (`./saves` is there only
/// inside the repository).
pub fn list_with_examples(dirs: &[PathBuf]) -> Vec<SessionEntry> {
    let mut out = list_sessions(dirs);
    for (name, text) in EXAMPLES {
        // Only the example's own file (`./saves` in the repository) stands
        // for it: a session or recovery file of the same name is the
        // user's, listed beside the example, never instead of it.
        let shipped_file = |e: &SessionEntry| {
            e.name == *name && crate::input::read_text_limited(&e.path, MAX_SESSION_BYTES).is_ok_and(|t| t == *text)
        };
        if !out.iter().any(shipped_file) {
            out.push(SessionEntry {
                name: name.to_string(),
                path: PathBuf::new(),
                example: true,
            });
        }
    }
    out
}

/// A `--resume` argument: a path to a file, or a session name looked up in
/// the session folders.
/// The example sessions shipped in `saves/`, embedded so `--resume klat2`
/// works from any directory.
pub const EXAMPLES: &[(&str, &str)] = &[
    ("klat2", include_str!("../../../saves/klat2.toml")),
    ("kasy0-sparse", include_str!("../../../saves/kasy0-sparse.toml")),
];

/// Whether `text` is a shipped example, unmodified: such a file is opened
/// read-only (a save goes to the data folder), so the repository's copy is
/// never rewritten.
pub(crate) fn is_example(text: &str) -> bool {
    EXAMPLES.iter().any(|(_, t)| *t == text)
}

/// Whether `name` is a shipped example's: no saved session may take it,
/// so `--resume klat2` always means the example.
pub fn is_example_name(name: &str) -> bool {
    EXAMPLES.iter().any(|(n, _)| *n == name)
}

/// A name for a run's first save: `base` (as a file name) unless a
/// shipped example or a session in `dirs` has it, else `base-2`, `base-3`…
pub fn fresh_name(base: &str, dirs: &[PathBuf]) -> String {
    let base = file_stem_of(base);
    let taken: std::collections::BTreeSet<String> = list_sessions(dirs).into_iter().map(|e| e.name).collect();
    let free = |n: &String| !is_example_name(n) && !taken.contains(n);
    std::iter::once(base.clone())
        .chain((2u32..).map(|k| format!("{base}-{k}")))
        .find(free)
        .unwrap_or(base)
}

/// `name` as a file name, the one naming every file of a session (its
/// save, its recovery file, the first save's offer): lower-case letters,
/// digits and `-`, the rest as `-`; cut so the name fits 255 bytes
/// whatever the session is called.
pub fn file_stem_of(name: &str) -> String {
    let s: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let s = crate::atomic::cut_to_bytes(s.trim_matches('-'), 200)
        .trim_matches('-')
        .to_string();
    if s.is_empty() { "session".into() } else { s }
}

/// Where save-as writes what the user typed: a bare name is `NAME.toml`
/// in `sessions` (as `file_stem_of` writes it); anything with a `/` is a
/// path (`.toml` added when it has no extension). A shipped example's
/// name is refused.
pub fn save_target(typed: &str, sessions: &Path) -> Result<PathBuf, SessionError> {
    let typed = typed.trim();
    if typed.contains('/') {
        let p = PathBuf::from(typed);
        return Ok(if p.extension().is_none() {
            p.with_extension("toml")
        } else {
            p
        });
    }
    let name = file_stem_of(typed.strip_suffix(".toml").unwrap_or(typed));
    if is_example_name(&name) {
        return Err(SessionError::ExampleName(name));
    }
    // Spaces and marks become `-`: the name stays one a shell and the
    // open list show plainly.
    Ok(sessions.join(format!("{name}.toml")))
}

/// A `--resume` or open-list argument: the session and the file its saves
/// go to (`None` for a shipped example, which is opened read-only). A
/// path to a file is that file; a shipped example's name is always the
/// example (a saved session of that name is reached by its path); any
/// other name is looked up in the session folders.
pub fn open_session(arg: &str, dirs: &[PathBuf]) -> Result<(Session, Option<PathBuf>), SessionError> {
    let example = EXAMPLES.iter().find(|(n, _)| *n == arg);
    let path = if Path::new(arg).is_file() {
        Some(PathBuf::from(arg))
    } else if example.is_some() {
        None
    } else {
        find_session(arg, dirs)
    };
    let (text, path) = match (&path, example) {
        (Some(p), _) => {
            let text = crate::input::read_text_limited(p, MAX_SESSION_BYTES).map_err(|e| SessionError::Read {
                path: p.display().to_string(),
                message: e.to_string(),
            })?;
            (text, Some(p.clone()))
        }
        (None, Some((_, text))) => (text.to_string(), None),
        (None, None) => {
            let where_: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
            let names: Vec<&str> = EXAMPLES.iter().map(|(n, _)| *n).collect();
            return Err(SessionError::Read {
                path: arg.to_string(),
                message: format!(
                    "no session `{arg}`: give a session file, a name saved in {}, or a shipped example ({})",
                    where_.join(", "),
                    names.join(", ")
                ),
            });
        }
    };
    let shown = path
        .as_ref()
        .map_or(format!("example {arg}"), |p| p.display().to_string());
    let session = Session::from_toml(&text, &shown)?;
    let writable = path.filter(|_| !is_example(&text));
    Ok((session, writable))
}

pub fn find_session(arg: &str, dirs: &[PathBuf]) -> Option<PathBuf> {
    let p = Path::new(arg);
    if p.is_file() {
        return Some(p.to_path_buf());
    }
    list_sessions(dirs).into_iter().find(|e| e.name == arg).map(|e| e.path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a file that says it holds no edits may be replaced; an older
    /// file without the marker, or one that cannot be read, is kept.
    #[test]
    fn only_a_recovery_file_marked_without_edits_may_be_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let cases = [
            ("version = 1\nuser_edits = false\n[spec]\n", false),
            ("version = 1\nuser_edits = true\n[spec]\n", true),
            ("version = 1\n[spec]\nuser_edits = false\n", true),
            ("version = 1\n", true),
        ];
        for (i, (text, kept)) in cases.into_iter().enumerate() {
            let path = dir.path().join(format!("{i}.toml"));
            crate::fs::write_in_place(&path, text).unwrap();
            assert_eq!(holds_user_edits(&path), kept, "{text}");
        }
        assert!(holds_user_edits(&dir.path().join("missing.toml")));
    }

    /// The quick read of the version takes only the plain form before any
    /// table; anything else is left to the TOML parser.
    #[test]
    fn the_version_is_read_from_its_plain_top_level_line_only() {
        assert_eq!(top_level_version("# saved\nversion = 1\nname = \"x\"\n"), Some(1));
        assert_eq!(top_level_version("version=4294967297 # big\n"), Some(4294967297));
        assert_eq!(top_level_version("name = \"x\"\n[engine]\nversion = 1\n"), None);
        assert_eq!(top_level_version("versions = 2\n"), None);
        assert_eq!(top_level_version("version = 0x1\n"), None);
        // A hexadecimal version still reaches the parser's answer.
        let e = Session::from_toml("version = 0x63\n", "h.toml").unwrap_err();
        assert!(matches!(e, SessionError::Future { found: 99, .. }), "{e}");
    }

    /// The open list shows a shipped example beside a user's file of the
    /// same name (a recovery file of the default is `klat2.toml`), and once
    /// only for the example's own file in `./saves`.
    #[test]
    fn the_open_list_keeps_an_example_beside_a_file_of_its_name() {
        let d = tempfile::tempdir().unwrap();
        let dirs = vec![d.path().to_path_buf()];
        crate::fs::write_in_place(d.path().join("klat2.toml"), "version = 1\nname = \"mine\"\n").unwrap();
        let klat2: Vec<bool> = list_with_examples(&dirs)
            .iter()
            .filter(|e| e.name == "klat2")
            .map(|e| e.example)
            .collect();
        assert_eq!(klat2, [false, true], "the user's file and the example");
        let shipped = EXAMPLES.iter().find(|(n, _)| *n == "klat2").unwrap().1;
        crate::fs::write_in_place(d.path().join("klat2.toml"), shipped).unwrap();
        let klat2 = list_with_examples(&dirs).iter().filter(|e| e.name == "klat2").count();
        assert_eq!(klat2, 1, "the example's own file stands for it");
    }

    /// A saved session never shadows a shipped example: a first save gets
    /// a name of its own, save-as refuses an example's name and puts a
    /// bare name into the sessions folder, and `--resume klat2` opens the
    /// example even beside a user's `klat2.toml`.
    #[test]
    fn a_shipped_example_is_never_shadowed_by_a_saved_session() {
        let d = tempfile::tempdir().unwrap();
        let dirs = vec![d.path().to_path_buf()];
        assert_eq!(fresh_name("klat2", &dirs), "klat2-2");
        assert_eq!(fresh_name("my cluster", &dirs), "my-cluster");
        crate::fs::write_in_place(d.path().join("klat2-2.toml"), "x").unwrap();
        assert_eq!(fresh_name("klat2", &dirs), "klat2-3");
        assert!(
            save_target("klat2", d.path())
                .unwrap_err()
                .to_string()
                .contains("shipped example")
        );
        assert_eq!(
            save_target("my design!", d.path()).unwrap(),
            d.path().join("my-design.toml")
        );
        assert_eq!(
            save_target("./here/x", d.path()).unwrap(),
            PathBuf::from("./here/x.toml")
        );
        // A user's file named like the example (from an older version).
        let (example, _) = open_session("klat2", &dirs).unwrap();
        let mut mine = example.clone();
        mine.name = "mine".into();
        crate::fs::write_in_place(d.path().join("klat2.toml"), mine.to_toml()).unwrap();
        let (opened, writable) = open_session("klat2", &dirs).unwrap();
        assert_eq!((opened.name.as_str(), writable), (example.name.as_str(), None));
        let by_path = d.path().join("klat2.toml");
        let (opened, _) = open_session(&by_path.display().to_string(), &dirs).unwrap();
        assert_eq!(opened.name, "mine");
    }

    /// A session past the size a session may be (written, then refused on
    /// reading) keeps its best members that fit, and opens again with the
    /// population filled up.
    #[test]
    fn a_session_too_big_to_read_back_keeps_its_best_members() {
        let mut spec = crate::spec::QuickFlags {
            pcs: Some(40),
            nics: Some(3),
            switches: Some("20x12".into()),
            ..Default::default()
        }
        .apply(Spec::default())
        .unwrap();
        // Something left to improve, so the resumed run takes a generation.
        spec.weights.balance = 1.0;
        let session = crate::run::Run::new(spec).unwrap().session("big");
        let whole = session.to_toml();
        let limit = whole.len() as u64 / 3;
        let text = session.fitting_toml(limit).expect("fits with fewer members");
        assert!(text.len() as u64 <= limit, "{} > {limit}", text.len());
        let back = Session::from_toml(&text, "big.toml").expect("reads back");
        let kept = back.engine.population.len();
        assert!(kept > 1 && kept < session.engine.population.len(), "{kept}");
        let best = |s: &Session| s.engine.population.first().map(|m| m.entries.clone());
        assert_eq!(best(&back), best(&session), "the best member is kept");
        let mut resumed = crate::run::Run::resume(&back).expect("restores");
        let stop = resumed.step();
        assert_eq!(
            (stop, resumed.engine().population().len()),
            (None, session.engine.population.len()),
            "filled up again"
        );
        assert!(
            session
                .fitting_toml(10)
                .unwrap_err()
                .to_string()
                .contains("even with one member")
        );
    }
}
