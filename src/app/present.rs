//! What every answer goes through on its way out, commands and clicks
//! alike, in one place: the game master's tools fold behind one ⚙ button
//! ([`gm_panel`]), the caller's channel's house rule `verbosity` shortens
//! results ([`verbosity`]), and it is told whether the answer shows a
//! secret session (then the adapter delivers it as that roll went:
//! privately, with the GM channel's copy). One read serves both, and only
//! when either can matter.
//!
//! The adapter calls [`present`] once per answer: `kit::respond` for a
//! command, the component handler for a click.

use super::{gm_panel, secret, verbosity, App, Caller, Reply, Response};

/// An answer ready to be delivered.
#[derive(Debug, Clone, PartialEq)]
pub struct Presented {
    /// The answer, folded and as long as its channel wants it.
    pub response: Response,
    /// It shows a secret session.
    pub secret: bool,
}

/// Presents `r`, the answer to `caller`'s action (see the module comment).
pub async fn present(app: &App, caller: &Caller, r: Response) -> Presented {
    let response = gm_panel::fold_response(&app.registry, r);
    let shown: Vec<i64> = std::iter::once(&response.reply)
        .chain(response.followups.iter())
        .filter_map(|reply| {
            let (Reply::Message(v) | Reply::Update(v) | Reply::Ephemeral(v) | Reply::Edit(v)) =
                reply;
            // A session the action just created openly is not secret:
            // no need to look (one round trip less per `/roll`).
            v.session().filter(|_| !v.opened)
        })
        .collect();
    if shown.is_empty() && !verbosity::has_result(&response) {
        return Presented {
            response,
            secret: false,
        };
    }
    let Ok(mut tx) = app.db.glance().await else {
        return Presented {
            response,
            secret: false,
        };
    };
    let mut is_secret = false;
    for id in shown {
        if matches!(
            secret::lookup_in(&mut tx, caller.guild_id, id).await,
            Ok(Some(_))
        ) {
            is_secret = true;
            break;
        }
    }
    Presented {
        response: verbosity::apply_in(&mut tx, caller, response).await,
        secret: is_secret,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::settings::{self, ChannelSettings};
    use crate::app::verbosity::Verbosity;
    use crate::app::view::{Button, Embed, Style, View};
    use crate::app::{Act, RngSource};
    use crate::config::Config;
    use crate::storage::Db;

    const GUILD: i64 = 71;

    async fn app() -> App {
        let dir = std::env::temp_dir().join(format!("kismet-present-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("present.db");
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
        }
        let db = Db::open(&format!("sqlite://{}", path.display()), 2)
            .await
            .unwrap();
        App::new(
            db,
            Config::defaults(),
            RngSource::seeded(1),
            crate::app::Registry::default(),
        )
    }

    /// A result (an embed with an author line) with a player's button and
    /// a game master's tool.
    fn result() -> View {
        View::embed(
            Embed::new("✅ Success")
                .author("Ada · Wits + Alertness")
                .description("**8** 3\nmore lines"),
        )
        .buttons(vec![
            Button::new("st:1:0:keep", "Keep", Style::Secondary),
            Button::new("st:1:0:void", "Void", Style::Danger).gm_only(),
        ])
    }

    /// The ⚙ fold and the channel's verbosity are applied once, in one
    /// place, to any answer: a click's update and a command's message come
    /// out alike.
    #[tokio::test]
    async fn answers_are_folded_and_shortened_alike() {
        let app = app().await;
        let caller = Caller {
            guild_id: GUILD,
            channel_id: 5,
            user_id: 1,
            ..Caller::default()
        };
        let mut act = Act::housekeeping(&app, GUILD).await.unwrap();
        let compact = ChannelSettings {
            system: None,
            verbosity: Verbosity::Compact,
        };
        settings::save_channel(&mut act, GUILD, 5, &compact)
            .await
            .unwrap();
        act.commit().await.unwrap();
        let command = present(&app, &caller, Response::message(result())).await;
        let click = present(&app, &caller, Response::update(result())).await;
        for (p, reply) in [(&command, "message"), (&click, "update")] {
            let (Reply::Message(v) | Reply::Update(v)) = &p.response.reply else {
                panic!("{reply}: {:?}", p.response.reply)
            };
            let labels: Vec<&str> = v.all_buttons().map(|b| b.label.as_str()).collect();
            assert_eq!(labels, vec!["Keep", "⚙ Game master (FC)"], "{reply}");
            assert!(v.embeds[0].author.is_none(), "{reply}: one line");
            assert_eq!(
                v.embeds[0].description.as_deref(),
                Some("**✅ Success** · Ada · Wits + Alertness · **8** 3"),
                "{reply}"
            );
            assert!(!p.secret, "{reply}: session 1 is not secret");
        }
    }
}
