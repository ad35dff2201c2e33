//! Whom an open task waits on (issue 32, play by post): the roller's
//! answer to an offered aid, their KISS round, their spending or Ego
//! choice, and on the game masters in the FC's subversion window (a task
//! closed with `subversion_open`, or one stored before the result was
//! applied at **Finish**, resting in the rules' subversion phase). In a
//! play-by-post game the pipeline records the wait and pings that member
//! (or the game masters) once ([`crate::app::waits`]); elsewhere it
//! changes nothing.

use crate::app::pipeline::Waiter;
use crate::rules::venus::task::TaskPhase;
use crate::systems::venus::state::TaskSession;

/// Whom the task `st` as it now stands waits on, and what for; `None`
/// when it waits on nobody.
pub fn of(st: &TaskSession) -> Option<(Waiter, String)> {
    let roller = Waiter::Member(st.roller.user);
    let name = st.roller.shown();
    Some(match st.task.phase {
        TaskPhase::AidOffers => {
            let offered: Vec<String> = st
                .task
                .pending_allies()
                .map(|a| st.shown_of(a.id))
                .collect();
            if offered.is_empty() {
                return None;
            }
            let what = format!("{name}'s answer to the aid of {}", offered.join(", "));
            (roller, what)
        }
        TaskPhase::KissDeclaration => (roller, format!("{name}'s KISS round")),
        TaskPhase::Spending => (roller, format!("{name}'s spending")),
        TaskPhase::EgoOffer => (roller, format!("{name}'s Ego choice")),
        TaskPhase::Closed if !st.subversion_open => return None,
        TaskPhase::GmSubversion | TaskPhase::Closed => (
            Waiter::GameMasters,
            format!("the FC's subversion of {name}'s task"),
        ),
    })
}
