//! One declaration of what every game command repeats (issue 28 item 4):
//! the shared options (`character:`, `player:`, `secret:`) and the
//! caller/answer around the command's own work. A game command is written
//! with [`command!`]: its options in order, the shared ones by a marker,
//! and a body that receives the caller and gives the
//! [`AppResult`](crate::app::AppResult) to answer with.

/// Declares a slash command (a `#[poise::command]` function) whose body
/// receives the caller and evaluates to the [`AppResult`](crate::app::AppResult)
/// to answer with ([`respond`](crate::kit::respond), or
/// [`respond_as`](crate::kit::respond_as) when it has a `secret:` option).
///
/// Between the context's and the caller's names and the body come the
/// command's options, in the order Discord shows them: ordinary ones as in
/// any poise command, and the shared ones as a marker with their
/// description:
/// - `#[character = "Character"] character` gives the character option
///   (`character:`, up to 64 characters, completed from the caller's
///   sheets), an `Option<String>` named `character` in the body;
/// - `#[player = "Whose (FC)"] player` gives the member option
///   (`player:`), seen in the body as that member's id (`Option<i64>`);
/// - `#[secret = "Only you and the FC see it"] secret` gives the
///   `secret:` option: the caller acts secretly when it is set (refused
///   when the server has no GM channel; see
///   [`secret_caller`](crate::kit::secret_caller)) and the answer goes to
///   them privately with the GM channel's copy;
/// - `#[pick(character = "Character", player = "Whose (FC)")] pick` gives
///   both the character and the member option, in that order, seen in the
///   body as one [`Pick`](crate::app::characters::Pick) named `pick`.
///
/// ```ignore
/// command! {
///     /// Empty a slot
///     #[poise::command(slash_command, rename = "remove")]
///     pub async fn item_remove(
///         ctx,
///         caller,
///         #[description = "Slot"]
///         #[min = 1]
///         #[max = 18]
///         slot: u32,
///         #[pick(character = "Character", player = "Referee: another member")] pick,
///     ) {
///         sheets::remove_item(&ctx.data().app, &caller, slot, pick).await
///     }
/// }
/// ```
macro_rules! command {
    (
        $(#[$($meta:tt)*])*
        pub async fn $name:ident($ctx:ident, $caller:ident $(, $($params:tt)*)?) {$($body:tt)*}
    ) => {
        $crate::kit::command::command!(@option
            [$(#[$($meta)*])* $name $ctx $caller {$($body)*}] [] [] [] []
            $($($params)*)?
        );
    };
    // The shared options, one marker each.
    (@option $head:tt [$($done:tt)*] $player:tt $secret:tt $pick:tt
        #[character = $description:tt] $option:ident $(, $($rest:tt)*)?
    ) => {
        $crate::kit::command::command!(@option $head [$($done)*
            #[description = $description]
            #[autocomplete = "crate::kit::complete_character"]
            #[max_length = 64]
            #[rename = "character"]
            $option: Option<String>,
        ] $player $secret $pick $($($rest)*)?);
    };
    (@option $head:tt [$($done:tt)*] [] $secret:tt $pick:tt
        #[player = $description:tt] $option:ident $(, $($rest:tt)*)?
    ) => {
        $crate::kit::command::command!(@option $head [$($done)*
            #[description = $description]
            $option: Option<::poise::serenity_prelude::User>,
        ] [$option] $secret $pick $($($rest)*)?);
    };
    (@option $head:tt [$($done:tt)*] $player:tt [] $pick:tt
        #[secret = $description:tt] $option:ident $(, $($rest:tt)*)?
    ) => {
        $crate::kit::command::command!(@option $head [$($done)*
            #[description = $description]
            $option: Option<bool>,
        ] $player [$option] $pick $($($rest)*)?);
    };
    // Both character options at once, seen in the body as one `Pick`.
    (@option $head:tt [$($done:tt)*] [] $secret:tt []
        #[pick(character = $character:tt, player = $player:tt)] $option:ident
        $(, $($rest:tt)*)?
    ) => {
        $crate::kit::command::command!(@option $head [$($done)*] [] $secret
            [$option character player]
            #[character = $character] character,
            #[player = $player] player,
            $($($rest)*)?
        );
    };
    // Any other option, as written. Its type is passed on token by token
    // (an optional one as `Option<…>` itself): poise reads a type spelt
    // `Option<T>` as an optional option.
    (@option $head:tt [$($done:tt)*] $player:tt $secret:tt $pick:tt
        $(#[$($attr:tt)*])* $option:ident : Option<$($inner:ident)::+> $(, $($rest:tt)*)?
    ) => {
        $crate::kit::command::command!(@option $head [$($done)*
            $(#[$($attr)*])* $option: Option<$($inner)::+>,
        ] $player $secret $pick $($($rest)*)?);
    };
    (@option $head:tt [$($done:tt)*] $player:tt $secret:tt $pick:tt
        $(#[$($attr:tt)*])* $option:ident : $($ty:ident)::+ $(, $($rest:tt)*)?
    ) => {
        $crate::kit::command::command!(@option $head [$($done)*
            $(#[$($attr)*])* $option: $($ty)::+,
        ] $player $secret $pick $($($rest)*)?);
    };
    // Every option read: the function.
    (@option [$(#[$($meta:tt)*])* $name:ident $ctx:ident $caller:ident $body:tt]
        [$($done:tt)*] [$($player:ident)?] [$($secret:ident)?]
        [$($pick:ident $character:ident $member:ident)?]
    ) => {
        $(#[$($meta)*])*
        pub async fn $name(
            $ctx: $crate::kit::Context<'_>,
            $($done)*
        ) -> ::std::result::Result<(), $crate::kit::Error> {
            $(let $player = $crate::kit::user_id(&$player);)?
            $(let $pick = $crate::app::characters::Pick::new($character.as_deref(), $member);)?
            $crate::kit::command::command!(@answer $ctx $caller [$($secret)?] $body)
        }
    };
    (@answer $ctx:ident $caller:ident [] $body:tt) => {{
        let $caller = $crate::kit::caller_of($ctx)?;
        let result: $crate::app::AppResult = $body;
        $crate::kit::respond($ctx, result).await
    }};
    (@answer $ctx:ident $caller:ident [$secret:ident] $body:tt) => {{
        let ::std::option::Option::Some($caller) =
            $crate::kit::secret_caller($ctx, $secret).await?
        else {
            return ::std::result::Result::Ok(());
        };
        let result: $crate::app::AppResult = $body;
        $crate::kit::respond_as($ctx, &$caller, result).await
    }};
}

pub(crate) use command;

#[cfg(test)]
mod tests {
    command! {
        /// A command declaring every shared option between its own.
        #[poise::command(slash_command)]
        pub async fn probe(
            ctx,
            caller,
            #[description = "A number"]
            #[min = 1]
            #[max = 5]
            number: u32,
            #[character = "Character"] character,
            #[player = "Whose"] player,
            #[secret = "Only you see it"] secret,
            #[description = "A note"] note: Option<String>,
        ) {
            let _ = (&caller, number, character, player, note);
            Err(crate::app::AppError::user("never run"))
        }
    }

    command! {
        /// A command naming its character by one pick.
        #[poise::command(slash_command)]
        pub async fn picking(
            ctx,
            caller,
            #[description = "A number"] number: u32,
            #[pick(character = "Which", player = "Whose")] pick,
            #[description = "A note"] note: Option<String>,
        ) {
            let _: crate::app::characters::Pick<'_> = pick;
            let _ = (&caller, number, note);
            Err(crate::app::AppError::user("never run"))
        }
    }

    #[test]
    fn a_pick_stands_for_the_character_and_player_options_in_that_order() {
        let options: Vec<serde_json::Value> = picking()
            .parameters
            .iter()
            .map(|p| serde_json::to_value(p.create_as_slash_command_option().unwrap()).unwrap())
            .collect();
        let shown: Vec<(&str, &str, &serde_json::Value)> = options
            .iter()
            .map(|o| {
                let name = o["name"].as_str().unwrap();
                (name, o["description"].as_str().unwrap(), &o["type"])
            })
            .collect();
        let (string, member, integer) = (&3.into(), &6.into(), &4.into());
        assert_eq!(
            shown,
            [
                ("number", "A number", integer),
                ("character", "Which", string),
                ("player", "Whose", member),
                ("note", "A note", string),
            ]
        );
        assert_eq!(options[1]["max_length"], 64);
        assert_eq!(options[1]["autocomplete"], true);
    }

    #[test]
    fn the_shared_options_stand_where_they_are_declared_with_their_limits() {
        let options: Vec<serde_json::Value> = probe()
            .parameters
            .iter()
            .map(|p| serde_json::to_value(p.create_as_slash_command_option().unwrap()).unwrap())
            .collect();
        let names: Vec<&str> = options
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["number", "character", "player", "secret", "note"]);
        let [number, character, player, secret, _] = &options[..] else {
            panic!("{options:?}");
        };
        assert_eq!(number["required"], true);
        assert_eq!(number["min_value"], 1.0);
        // A string (3), optional, completed from the caller's sheets.
        assert_eq!(character["type"], 3);
        assert_eq!(character["description"], "Character");
        assert_eq!(character["max_length"], 64);
        assert_eq!(character["autocomplete"], true);
        assert_eq!(character["required"], false);
        // A member (6) and a boolean (5), optional.
        assert_eq!(player["type"], 6);
        assert_eq!(player["description"], "Whose");
        assert_eq!(player["required"], false);
        assert_eq!(secret["type"], 5);
        assert_eq!(secret["description"], "Only you see it");
        assert_eq!(secret["required"], false);
    }
}
