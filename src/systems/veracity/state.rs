//! What a Veracity session shows: a sheet or a channel's Convention board.
//! Shared by the actions that post and change them and the click router.

use serde::{Deserialize, Serialize};

use crate::rules::veracity::level::RevelationInput;

/// What a Veracity session shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "view", rename_all = "snake_case")]
pub enum VrState {
    /// A sheet, by character row id.
    Sheet {
        /// The character's row id.
        character: i64,
    },
    /// The Convention board of a channel.
    Board {
        /// The channel.
        channel: i64,
    },
    /// A revelation waiting for the referee's judgement (issue 14): shocked,
    /// not shocked, or not greater than the last.
    Reveal {
        /// The revealing character's row id.
        character: i64,
        /// What was revealed, and the slot asked for.
        input: RevelationInput,
        /// Who asked.
        requester: i64,
        /// The referee's answer once given.
        #[serde(default)]
        outcome: Option<Judgement>,
        /// The Secrets' texts when asked (the sheet must still hold them).
        #[serde(default)]
        secrets: Vec<String>,
    },
}

/// The referee's judgement of a revelation, stored by its word
/// (`shocked`, `not_shocked`, `not_greater`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    /// Shocked, and greater than the last: one slot.
    Shocked,
    /// The Secrets are out, the NPC is not shocked: no slot.
    NotShocked,
    /// Not greater than the last revelation: no slot.
    NotGreater,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A revelation's state and its `reveal_judged` record keep the words
    /// earlier versions stored for the judgement, and read them back.
    #[test]
    fn judgements_keep_their_stored_words() {
        let input = r#"{"target":"Lady Vane","secret_slots":[1],"evidence_slots":[],"note":"","gain":"light"}"#;
        for (word, j) in [
            ("shocked", Judgement::Shocked),
            ("not_shocked", Judgement::NotShocked),
            ("not_greater", Judgement::NotGreater),
        ] {
            let stored = format!(
                r#"{{"view":"reveal","character":3,"input":{input},"requester":7,"outcome":"{word}","secrets":["x"]}}"#
            );
            let state: VrState = serde_json::from_str(&stored).unwrap();
            assert!(matches!(&state, VrState::Reveal { outcome: Some(o), .. } if *o == j));
            assert_eq!(serde_json::to_string(&state).unwrap(), stored);
            let judged = format!(r#"{{"judgement":"{word}","input":{input}}}"#);
            let record: super::super::record::Judged = serde_json::from_str(&judged).unwrap();
            assert_eq!(record.judgement, j);
            assert_eq!(serde_json::to_string(&record).unwrap(), judged);
        }
    }
}
