//! Veracity's roll-log records, typed: the `inputs` and `dice` columns an
//! action writes are serde types of this file (the `outcome` columns are
//! the rules core's own [`SaveResult`](crate::rules::veracity::save::SaveResult)
//! and [`Event`](crate::rules::veracity::Event) lists), and `/history`
//! reads them back with the same types ([`super::history`]).
//!
//! The JSON is the one earlier versions wrote, key for key; fields a row
//! may lack have defaults, so older rows still read.

use serde::{Deserialize, Serialize};

use crate::rules::veracity::convention::{ConventionCost, ConventionEdit, ConventionRef};
use crate::rules::veracity::level::RevelationInput;
use crate::rules::veracity::save::FacetRoll;

use super::state::Judgement;

/// `dice` of a save (`save`, `initiative`, `flee`): the d20 and each
/// Facet die.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SaveDice {
    /// The d20.
    pub d20: u32,
    /// The Facet dice rolled with it.
    #[serde(default)]
    pub facets: Vec<FacetRoll>,
}

/// `inputs` of a fight's save (`initiative`, `flee`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FightSave {
    /// The referee's modifier.
    pub modifier: i32,
    /// The Facet named, if any.
    pub facet: Option<String>,
}

/// `inputs` of `sheet_create`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Created {
    /// The character's name.
    pub name: String,
    /// Light slots unlocked.
    pub light: u32,
    /// Flesh slots unlocked.
    pub flesh: u32,
    /// The first Facet (a PC's d6).
    pub facet: Option<String>,
    /// A non-player character (the referee's).
    pub npc: bool,
    /// The owning member.
    pub owner: i64,
}

/// `inputs` of `reveal_judged`: a revelation the referee judged without a
/// slot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    /// The judgement (not shocked, not greater).
    pub judgement: Judgement,
    /// What was revealed, to whom.
    pub input: RevelationInput,
}

/// `inputs` of `convention_add`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConventionAdded {
    /// Its text.
    pub text: String,
    /// What breaking it costs.
    pub cost: ConventionCost,
    /// At most once per scene.
    pub once_per_scene: bool,
}

/// `inputs` of `convention_edit`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConventionEdited {
    /// The Convention's number in the list.
    pub number: usize,
    /// What changed.
    pub edit: ConventionEdit,
}

/// `inputs` of `convention_remove`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConventionRemoved {
    /// The Convention's number in the list.
    pub number: usize,
}

/// `inputs` of `convention_violate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConventionViolated {
    /// Which Convention.
    pub convention: ConventionRef,
    /// The channel whose Conventions they are.
    pub channel: i64,
}

/// `inputs` of `end_scene`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SceneEnded {
    /// The channel whose scene ended.
    pub channel: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records keep the keys earlier versions wrote, and rows with fewer
    /// keys still read.
    #[test]
    fn records_keep_the_json_earlier_versions_wrote() {
        let c = Created {
            name: "Ada".into(),
            light: 6,
            flesh: 5,
            facet: Some("Nosy".into()),
            npc: false,
            owner: 7,
        };
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            r#"{"name":"Ada","light":6,"flesh":5,"facet":"Nosy","npc":false,"owner":7}"#
        );
        let old: Created = serde_json::from_str(r#"{"light":3,"flesh":2}"#).unwrap();
        assert_eq!((old.light, old.flesh, old.npc), (3, 2, false));
        assert_eq!(
            serde_json::to_string(&FightSave {
                modifier: -2,
                facet: None
            })
            .unwrap(),
            r#"{"modifier":-2,"facet":null}"#
        );
        assert_eq!(
            serde_json::to_string(&SceneEnded { channel: 9 }).unwrap(),
            r#"{"channel":9}"#
        );
    }
}
