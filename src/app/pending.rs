//! A settled outcome of the action pipeline ([`super::pipeline`]): written
//! in a transaction that is not committed yet, drawn once it is. Its own
//! file, so what hands one on (the registry's composed changes) needs
//! nothing else of the pipeline.

use super::{App, Caller, Reply, Response};
use crate::storage::sessions::Session;

/// A settled outcome, drawn once its transaction is committed.
pub struct Pending {
    response: Response,
    redraw: Vec<Session>,
}

impl Pending {
    /// The answer, and the other posted sessions to redraw after the
    /// commit.
    pub(crate) fn new(response: Response, redraw: Vec<Session>) -> Self {
        Pending { response, redraw }
    }

    /// The answer, with every other posted message that shows a changed
    /// sheet redrawn as it now stands ([`Reply::Edit`]), each drawn where
    /// it lives (its game's house rules), not where the caller acts.
    pub async fn draw(self, app: &App, caller: &Caller) -> Response {
        let mut r = self.response;
        for s in self.redraw {
            let there = caller.clone().at(super::games::Place::of(&s));
            match app.registry.render(app, &s, &there).await {
                Ok(v) => r.followups.push(Reply::Edit(v)),
                Err(e) => {
                    tracing::warn!(session = s.id, error = %e.report(), "could not redraw a message")
                }
            }
        }
        r
    }
}
