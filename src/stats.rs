//! Counts over one session: entries by type, tree shape, labels, name, and the usage totals
//! of FORMAT §12 for the whole file and for the active path, and the file's by model, as pi's
//! `/session` breaks its cost down.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde_json::{Map, Value, json};

use crate::error::Result;
use crate::format::Dialect;
use crate::format::entry::{Fields, Message, Object, Payload, Raw, Role};
use crate::js;
use crate::json::scan::Scanner;
use crate::session::Session;

/// Token and cost totals (FORMAT §12), in the order of their names in [`Usage::to_json`]:
/// input, output, cache-read, cache-write and total tokens; orchestration input, output and
/// cache-read tokens; premium requests (fractions allowed); the billed cost (`cost.total`
/// summed) and the cost of subagents (task tool results). Numbers are `f64` as in the agents
/// (JavaScript numbers).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Usage(pub [f64; 11]);

/// Each figure's name in [`Usage::to_json`] and the path to it in an agent's usage object (the
/// members are looked up one by one, not through a JSON pointer: `stats` reads every usage);
/// the subagent cost is counted from the entry instead.
const FIELDS: [(&str, &[&str]); 11] = [
    ("input", &["input"]),
    ("output", &["output"]),
    ("cacheRead", &["cacheRead"]),
    ("cacheWrite", &["cacheWrite"]),
    ("totalTokens", &["totalTokens"]),
    ("orchestrationInput", &["orchestration", "input"]),
    ("orchestrationOutput", &["orchestration", "output"]),
    ("orchestrationCacheRead", &["orchestration", "cacheRead"]),
    ("premiumRequests", &["premiumRequests"]),
    ("cost", &["cost", "total"]),
    ("subagentCost", &[]),
];
/// Places in [`FIELDS`].
const TOTAL_TOKENS: usize = 4;
const COST: usize = 9;
const SUBAGENT_COST: usize = 10;

/// The key of [`Stats::breakdown`] for usage no model is named for: tool results, compactions
/// and branch summaries (pi 1.6.0's `getUsageCostBreakdown`).
pub const TOOLS_KEY: &str = "Tools/summaries";

/// [`payload_usage`] of a parsed entry.
pub(crate) fn entry_usage(entry: &Value, dialect: Dialect) -> Option<(String, Usage)> {
    payload_usage(&Payload::from_value(entry), dialect)
}

/// The usage one entry adds, if any, with the key [`Stats::breakdown`] groups it under. The
/// agents' rules together, as neither writes the other's sources: pi 1.6.0
/// (`getUsageCostBreakdown`, `getSessionStats`) counts an assistant message's `usage` under
/// `provider/(responseModel ?? model)`, a `usage` entry's under `provider/model`, and the
/// `usage` of a tool result, a compaction and a branch summary under [`TOOLS_KEY`]; oh-my-pi
/// 18.2.3 (`SessionManager.getUsageStatistics`) counts assistant messages, `model_usage`
/// entries (keyed as pi's `usage`) and a `task` tool result's `details.usage` (also counted as
/// subagent cost; not in a pi file, as pi does not count it).
pub(crate) fn payload_usage(entry: &Payload<'_>, dialect: Dialect) -> Option<(String, Usage)> {
    // JavaScript's `${provider}/${model}`.
    let model_key = |provider: Option<Raw<'_>>, model: Option<Raw<'_>>| {
        format!("{}/{}", js_string(provider), js_string(model))
    };
    let (key, usage) = match entry {
        Payload::Setting(Fields { members: e })
            if e.text("type").is_some_and(|t| t.is("usage") || t.is("model_usage")) =>
        {
            (model_key(e.member("provider"), e.member("model")), e.member("usage"))
        }
        Payload::Compaction(s) | Payload::BranchSummary(s) => {
            (TOOLS_KEY.to_owned(), s.members.member("usage"))
        }
        Payload::Message(Message { role: Some(Role::Assistant), members: m, .. }) => {
            let model = match m.member("responseModel") {
                Some(response_model) if !response_model.is_null() => Some(response_model),
                _ => m.member("model"),
            };
            (model_key(m.member("provider"), model), m.member("usage"))
        }
        Payload::Message(Message { role: Some(Role::ToolResult), members: m, .. })
            if m.member("usage").is_some_and(truthy) =>
        {
            (TOOLS_KEY.to_owned(), m.member("usage"))
        }
        Payload::Message(Message { role: Some(Role::ToolResult), members: m, .. })
            if m.text("toolName").is_some_and(|name| name.is("task"))
                && dialect == Dialect::Omp =>
        {
            let usage = m.member("details")?.object()?.member("usage")?;
            let mut u = Usage::default();
            u.add(usage);
            u.0[SUBAGENT_COST] += usage.object().map_or(0.0, |o| figure(&o, &["cost", "total"]));
            return Some((TOOLS_KEY.to_owned(), u));
        }
        _ => return None,
    };
    let usage = usage.filter(|&u| truthy(u))?;
    let mut u = Usage::default();
    u.add(usage);
    Some((key, u))
}

/// JavaScript's `String(v)` of a member (`undefined` when missing): a string as it is, without
/// parsing it into a value.
fn js_string(v: Option<Raw<'_>>) -> String {
    match v.and_then(|v| v.text()) {
        Some(text) => text.decode().into_owned(),
        None => js::string(v.map(|v| v.to_value()).as_deref()),
    }
}

/// JavaScript's truthiness of a value, read without parsing it (as [`js::truthy`]).
fn truthy(v: Raw<'_>) -> bool {
    if let Some(text) = v.text() {
        return !text.is_empty();
    }
    if v.is_number() {
        return v.as_f64().is_some_and(|f| f != 0.0);
    }
    !v.is_null() && v.as_bool() != Some(false)
}

/// The figure at `path` in a usage object: a finite number, else 0.
fn figure(usage: &Object<'_>, path: &[&str]) -> f64 {
    match path {
        [] => 0.0,
        [last] => usage.number(last).unwrap_or(0.0),
        [key, rest @ ..] => {
            usage.member(key).and_then(|v| v.object()).map_or(0.0, |inner| figure(&inner, rest))
        }
    }
}

impl Usage {
    /// The total tokens.
    pub fn tokens(&self) -> f64 {
        self.0[TOTAL_TOKENS]
    }

    /// The billed cost.
    pub fn cost(&self) -> f64 {
        self.0[COST]
    }

    /// Adds the totals of `other`, figure by figure.
    pub fn add_usage(&mut self, other: &Usage) {
        for (sum, figure) in self.0.iter_mut().zip(other.0) {
            *sum += figure;
        }
    }

    /// Adds one usage object; missing fields count as 0.
    pub fn add(&mut self, u: Raw<'_>) {
        let Some(u) = u.object() else { return };
        // The subagent cost's empty path reads the object itself: 0.
        let mut figures = FIELDS.map(|(_, path)| figure(&u, path));
        // Older files (pi's version 1) carry no `totalTokens`: the parts make it up, as the
        // newer files' totals do, so the total agrees with the figures beside it.
        if !u.member("totalTokens").is_some_and(|t| t.is_number()) {
            figures[TOTAL_TOKENS] = figures[..4].iter().sum();
        }
        self.add_usage(&Usage(figures));
    }

    /// The totals as a camelCase JSON object.
    pub fn to_json(&self) -> Value {
        let figures = FIELDS.iter().zip(self.0).enumerate().map(|(i, ((name, _), f))| {
            // Costs keep their fraction even when whole.
            let f = if i < COST { crate::json::js_number(f) } else { json!(f) };
            (name.to_string(), f)
        });
        Value::Object(figures.collect())
    }
}

/// The counts of one session.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Entries (records after the header).
    pub entries: usize,
    /// Entries by type, by name.
    pub by_type: BTreeMap<String, usize>,
    /// Entries without a parent. As in the drawn tree, a move marker counts as none of roots,
    /// leaves and branch points, nor as a level of depth, and its children count as its
    /// parent's ([`Session::folded_children`]).
    pub roots: usize,
    /// Entries without children.
    pub leaves: usize,
    /// Entries with more than one child.
    pub branch_points: usize,
    /// The longest root→leaf path, in entries.
    pub depth: usize,
    /// Labels in effect.
    pub labels: usize,
    /// The session name.
    pub name: Option<String>,
    /// Usage over every entry of the file.
    pub usage: Usage,
    /// Usage over the root→leaf path.
    pub path_usage: Usage,
    /// Usage over every entry of the file by model (`provider/model`, or [`TOOLS_KEY`]), in the order the keys
    /// first appear.
    pub breakdown: Vec<(String, Usage)>,
    /// Load diagnostics.
    pub problems: usize,
}

/// Counts a session. Reads the payloads of the entries that carry usage only (messages,
/// `model_usage`, `usage`, compactions, branch summaries), and of those only the fields usage is
/// counted from.
pub fn compute(session: &Session) -> Result<Stats> {
    let n = session.records.len();
    let mut stats = Stats {
        entries: n,
        roots: {
            let (mut roots, mut markers) = (Vec::new(), Vec::new());
            session.folded_children(None, &mut roots, &mut markers);
            roots.len()
        },
        labels: session.labels().len(),
        name: session.name().map(|(n, _)| n),
        problems: session.diagnostics.len(),
        ..Stats::default()
    };
    let mut on_path = vec![false; n];
    for i in session.leaf().map(|leaf| session.path_to_root(leaf)).unwrap_or_default() {
        on_path[i as usize] = true;
    }
    let mut counted = Vec::new();
    let dialect = session.dialect();
    // The shape is the drawn tree's: a move marker is neither a leaf nor a branch (its
    // children count as its parent's, `Session::folded_children`).
    let (mut kids, mut markers) = (Vec::new(), Vec::new());
    for (i, r) in session.records.iter().enumerate() {
        *stats.by_type.entry(r.kind.as_str().to_string()).or_default() += 1;
        let marker = r.kind == crate::format::Kind::BranchSummary && session.is_marker(i as u32)?;
        if !marker {
            session.folded_children(Some(i as u32), &mut kids, &mut markers);
            match kids.len() {
                0 => stats.leaves += 1,
                1 => {}
                _ => stats.branch_points += 1,
            }
        }
        use crate::format::Kind;
        if matches!(
            r.kind,
            Kind::Message | Kind::ModelUsage | Kind::Usage | Kind::Compaction | Kind::BranchSummary
        ) {
            counted.push(i as u32);
        }
    }
    // The usage of each entry is read on every core, a stretch of entries per task, and the
    // totals are summed in file order: a sum of floating-point numbers depends on its order,
    // and the totals must be those of one pass. A batch at a time, so memory stays small.
    const STRETCH: usize = 4096;
    let batch = STRETCH * 2 * rayon::current_num_threads().max(1);
    for entries in counted.chunks(batch) {
        let usages: Vec<Result<Vec<_>>> = entries
            .par_chunks(STRETCH)
            .map(|stretch| entry_usages(session, dialect, stretch))
            .collect();
        let mut at = entries.iter();
        for usages in usages {
            for (usage, &i) in usages?.into_iter().zip(&mut at) {
                let Some((key, usage)) = usage else { continue };
                stats.usage.add_usage(&usage);
                if on_path[i as usize] {
                    stats.path_usage.add_usage(&usage);
                }
                stats.add_to_breakdown(key, usage);
            }
        }
    }
    // Depth by a breadth-first walk from the roots: parents may come after their children in
    // the file, so a single forward pass is not enough.
    // Move markers are folded here too: a checkout adds no level.
    let mut level = Vec::new();
    session.folded_children(None, &mut level, &mut markers);
    while !level.is_empty() {
        stats.depth += 1;
        let mut next = Vec::new();
        for &i in &level {
            session.folded_children(Some(i), &mut kids, &mut markers);
            next.extend_from_slice(&kids);
        }
        level = next;
    }
    Ok(stats)
}

/// The usage each of `entries` adds, read in order with one reader: through the payload view
/// of the line's spans ([`Payload::scan`]), nothing of it parsed but the figures; through the
/// parsed line where the scan does not take it.
fn entry_usages(
    session: &Session,
    dialect: Dialect,
    entries: &[u32],
) -> Result<Vec<Option<(String, Usage)>>> {
    let mut lines = session.lines();
    let mut scanner = Scanner::new();
    let mut out = Vec::with_capacity(entries.len());
    for &i in entries {
        let usage = match Payload::scan(lines.line(i)?, &mut scanner) {
            Some(payload) => payload_usage(&payload, dialect),
            None => entry_usage(&session.value(i)?, dialect),
        };
        out.push(usage);
    }
    Ok(out)
}

impl Stats {
    /// Adds `usage` to the total of `key` in [`Stats::breakdown`].
    fn add_to_breakdown(&mut self, key: String, usage: Usage) {
        match self.breakdown.iter_mut().find(|(k, _)| *k == key) {
            Some((_, sum)) => sum.add_usage(&usage),
            None => self.breakdown.push((key, usage)),
        }
    }

    /// The JSON object printed by `stats --json`.
    pub fn to_json(&self, file: &str) -> Value {
        let mut m = Map::new();
        m.insert("file".into(), file.into());
        m.insert("name".into(), self.name.clone().map_or(Value::Null, Value::String));
        m.insert("entries".into(), self.entries.into());
        m.insert("byType".into(), json!(self.by_type));
        m.insert("roots".into(), self.roots.into());
        m.insert("leaves".into(), self.leaves.into());
        m.insert("branchPoints".into(), self.branch_points.into());
        m.insert("depth".into(), self.depth.into());
        m.insert("labels".into(), self.labels.into());
        m.insert("problems".into(), self.problems.into());
        m.insert("usage".into(), self.usage.to_json());
        m.insert("pathUsage".into(), self.path_usage.to_json());
        let breakdown = self.cost_breakdown().into_iter().map(
            |(key, cost, tokens)| json!({"key": key, "cost": cost, "tokens": crate::json::js_number(tokens)}),
        );
        m.insert("costBreakdown".into(), Value::Array(breakdown.collect()));
        Value::Object(m)
    }

    /// pi 1.6.0's `getUsageCostBreakdown` (what its `/session` lists under the cost): by key,
    /// the cost and the tokens (input, output, cache read and cache write), the most expensive
    /// first, without the keys that add neither.
    pub fn cost_breakdown(&self) -> Vec<(&str, f64, f64)> {
        let mut rows: Vec<_> = self
            .breakdown
            .iter()
            .map(|(key, u)| (key.as_str(), u.0[COST], u.0[..4].iter().sum::<f64>()))
            .filter(|&(_, cost, tokens)| cost > 0.0 || tokens > 0.0)
            .collect();
        // Stable, as JavaScript's sort: equal costs keep the order the keys appeared in.
        rows.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
        rows
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn arb_usage() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(json!({"input": 10, "output": 2, "totalTokens": 12, "cost": {"total": 0.5}})),
            Just(json!({"input": 1, "premiumRequests": 0.5, "orchestration": {"input": 4}})),
            Just(json!({"input": 3, "cost": 7, "orchestration": [1], "totalTokens": "9"})),
            Just(json!("not an object")),
            Just(json!("")),
            Just(json!(0)),
            Just(json!(false)),
            Just(json!([])),
            Just(json!(null)),
        ]
    }

    /// Numbers as the line may write them, which serde_json reads as its own (exponents,
    /// `-0`, out of range, more digits than an `f64` holds).
    fn arb_number() -> impl Strategy<Value = &'static str> {
        prop_oneof![
            Just("1E2"),
            Just("-0"),
            Just("1e400"),
            Just("0.1000000000000000055511151231257827"),
            Just("12345678901234567890123"),
            Just("-7.5e-3"),
        ]
    }

    fn arb_entry() -> impl Strategy<Value = Value> {
        let role = prop_oneof![Just("assistant"), Just("toolResult"), Just("user")];
        let tool = prop_oneof![Just(json!("task")), Just(json!("read")), Just(json!(5))];
        let kind = prop_oneof![
            Just("message"),
            Just("model_usage"),
            Just("usage"),
            Just("compaction"),
            Just("branch_summary"),
            Just("label")
        ];
        let model = prop_oneof![Just(json!("m")), Just(json!(null)), Just(json!(7))];
        (kind, role, tool, arb_usage(), arb_usage(), any::<bool>(), model).prop_map(
            |(kind, role, tool, u1, u2, details, model)| {
                let details = if details { json!({"usage": u2, "other": [1, 2]}) } else { u2 };
                json!({"type": kind, "id": "e", "usage": u1, "provider": "p", "model": model,
                    "message": {"role": role, "provider": "q", "model": "m",
                    "responseModel": model, "toolName": tool, "usage": u1, "details": details,
                    "content": [{"type": "text", "text": "long"}]}})
            },
        )
    }

    proptest! {
        /// The usage read from a line's spans is the usage of the parsed line, numbers
        /// written in every way included.
        #[test]
        fn usage_of_the_scanned_line_is_that_of_the_parsed_line(
            entry in arb_entry(),
            numbers in proptest::collection::vec(arb_number(), 3),
            pi in any::<bool>(),
        ) {
            // The figures written as the numbers drawn, in place of three of them.
            let mut line = serde_json::to_string(&entry).unwrap();
            for (written, number) in [r#""input":10"#, r#""total":0.5"#, r#""input":4"#].iter().zip(&numbers) {
                let (key, _) = written.split_once(':').unwrap();
                line = line.replacen(written, &format!("{key}:{number}"), 1);
            }
            let value: Value = serde_json::from_str(&line).unwrap();
            let payload = Payload::scan(line.as_bytes(), &mut Scanner::new()).unwrap();
            let dialect = if pi { Dialect::Pi } else { Dialect::Omp };
            let scanned = payload_usage(&payload, dialect);
            prop_assert_eq!(&scanned, &entry_usage(&value, dialect));
        }
    }

    /// Totals read on every core are those of one pass in file order, to the last bit: costs
    /// like 0.1 sum to other floats in another order. Enough entries for several batches.
    #[test]
    fn totals_are_summed_in_file_order() {
        let mut lines = vec![
            r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#.to_string(),
        ];
        let costs = [0.1, 0.7, 1e-9, 3.3, 1e12, 0.2];
        let n = 3 * 2 * 4096 * rayon::current_num_threads().max(1) + 17;
        let mut parent = "null".to_string();
        for i in 0..n {
            let cost = costs[i % costs.len()] * (1.0 + i as f64 / 7.0);
            let line = if i % 5 == 4 {
                format!(
                    r#"{{"type":"model_usage","id":"e{i}","parentId":{parent},"usage":{{"input":{i},"cost":{{"total":{cost}}}}}}}"#
                )
            } else {
                format!(
                    r#"{{"type":"message","id":"e{i}","parentId":{parent},"message":{{"role":"assistant","usage":{{"input":1,"output":{i},"cost":{{"total":{cost}}}}}}}}}"#
                )
            };
            lines.push(line);
            // Two branches: the path is every other stretch.
            parent =
                if i % 1000 == 999 { format!("\"e{}\"", i - 500) } else { format!("\"e{i}\"") };
        }
        let session =
            Session::from_bytes(std::path::Path::new("t"), lines.join("\n").into_bytes()).unwrap();
        let stats = compute(&session).unwrap();
        let (mut usage, mut path_usage) = (Usage::default(), Usage::default());
        let on_path: std::collections::HashSet<u32> =
            session.path_to_root(session.leaf().unwrap()).into_iter().collect();
        for i in 0..session.records.len() as u32 {
            let Some((_, u)) = entry_usage(&session.value(i).unwrap(), session.dialect()) else {
                continue;
            };
            usage.add_usage(&u);
            if on_path.contains(&i) {
                path_usage.add_usage(&u);
            }
        }
        assert_eq!(stats.usage, usage);
        assert_eq!(stats.path_usage, path_usage);
        assert!(stats.path_usage.0[COST] < stats.usage.0[COST]);
    }

    /// A usage without `totalTokens` (pi's version 1 files) totals its parts; one with it
    /// keeps the agent's figure.
    #[test]
    fn a_usage_without_a_total_totals_its_parts() {
        let mut u = Usage::default();
        u.add(Raw::new(&json!({"input": 1, "output": 2, "cacheRead": 30, "cacheWrite": 400})));
        assert_eq!(u.0[TOTAL_TOKENS], 433.0);
        u.add(Raw::new(&json!({"input": 1, "output": 2, "totalTokens": 5})));
        assert_eq!(u.0[TOTAL_TOKENS], 438.0);
    }

    fn usages(entries: &[Value], dialect: Dialect) -> Usage {
        let mut u = Usage::default();
        for (_, e) in entries.iter().filter_map(|e| entry_usage(e, dialect)) {
            u.add_usage(&e);
        }
        u
    }

    #[test]
    fn usage_rules() {
        let entries = [
            json!({"type":"message","message":{"role":"assistant","usage":{"input":10,"output":2,"cacheRead":1,"cacheWrite":0,"totalTokens":13,"cost":{"total":0.5}}}}),
            json!({"type":"model_usage","usage":{"input":1,"premiumRequests":0.5,"orchestration":{"input":4},"cost":{"total":0.25}}}),
            json!({"type":"message","message":{"role":"toolResult","toolName":"task","details":{"usage":{"input":3,"cost":{"total":1.0}}}}}),
            json!({"type":"message","message":{"role":"toolResult","toolName":"read","details":{"usage":{"input":100}}}}),
            json!({"type":"message","message":{"role":"user","usage":{"input":100}}}),
        ];
        let u = usages(&entries, Dialect::Omp);
        assert_eq!(u.0[0], 14.0);
        assert_eq!(u.0[8], 0.5);
        assert_eq!(u.0[5], 4.0);
        assert_eq!(u.0[COST], 1.75);
        assert_eq!(u.0[SUBAGENT_COST], 1.0);
        assert_eq!(u.to_json()["input"], json!(14));
        // pi 1.6.0 counts no `task` tool's details.
        let u = usages(&entries, Dialect::Pi);
        assert_eq!((u.0[COST], u.0[SUBAGENT_COST]), (0.75, 0.0));
    }

    /// pi 1.6.0's `getUsageCostBreakdown`: an assistant under `provider/(responseModel ??
    /// model)`, a `usage` entry under `provider/model`, a tool result's, a compaction's and a
    /// branch summary's usage under one key; the most expensive first, empty keys left out.
    #[test]
    fn the_breakdown_keys_usage_as_pi_does() {
        let usage = |cost: f64| json!({"input": 1, "output": 2, "cost": {"total": cost}});
        let entries = [
            json!({"type":"message","message":{"role":"assistant","provider":"a","model":"m","responseModel":null,"usage":usage(0.1)}}),
            json!({"type":"message","message":{"role":"assistant","provider":"o","model":"auto","responseModel":"x/y","usage":usage(0.5)}}),
            json!({"type":"usage","kind":"title","provider":"a","model":"m","usage":usage(0.2)}),
            json!({"type":"message","message":{"role":"toolResult","toolName":"codemode","usage":usage(0.3)}}),
            json!({"type":"compaction","usage":usage(0.3)}),
            json!({"type":"branch_summary","usage":usage(0.0)}),
            json!({"type":"usage","provider":"z","usage":{"input":0,"cost":{"total":0}}}),
        ];
        let mut stats = Stats::default();
        for (key, u) in entries.iter().filter_map(|e| entry_usage(e, Dialect::Pi)) {
            stats.add_to_breakdown(key, u);
        }
        let rows: Vec<_> = stats
            .cost_breakdown()
            .into_iter()
            .map(|(k, c, t)| (k, (c * 10.0).round(), t))
            .collect();
        assert_eq!(rows, [("Tools/summaries", 6.0, 9.0), ("o/x/y", 5.0, 3.0), ("a/m", 3.0, 6.0)],);
    }
}
