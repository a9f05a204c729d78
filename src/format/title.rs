//! TEMPORARY stand-in until the title-slot module lands.
use crate::naming::TitleSource;
/// slot
#[derive(Debug, Clone)]
pub struct TitleSlot {
    /// title
    pub title: String,
    /// source
    pub source: Option<TitleSource>,
    /// updatedAt
    pub updated_at: String,
}
/// parse
pub fn parse_slot(line: &[u8]) -> Option<TitleSlot> {
    let v: serde_json::Value = serde_json::from_slice(line).ok()?;
    if v.get("type")?.as_str()? != "title" || v.get("v")?.as_u64()? != 1 {
        return None;
    }
    v.get("pad")?.as_str()?;
    let source = match v.get("source") {
        None => None,
        Some(s) => Some(TitleSource::parse(s.as_str()?)?),
    };
    Some(TitleSlot {
        title: v.get("title")?.as_str()?.to_string(),
        source,
        updated_at: v.get("updatedAt")?.as_str()?.to_string(),
    })
}
