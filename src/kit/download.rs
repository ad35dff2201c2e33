//! Downloading a file a member attached to a slash command (an attachment
//! option, e.g. `/<root> sheet import file:`), safely: the attachment's
//! declared size is checked before anything is fetched, the download is
//! cut off past the cap and after a timeout, redirects are not followed,
//! and only the URLs the attachment can have are fetched: Discord's CDN in
//! production, and only loopback addresses when the bot runs against an
//! injected API base (the fake Discord of tests and the sandbox), so a
//! test can never reach the real network.

use std::time::Duration;

use poise::serenity_prelude as serenity;

use crate::app::AppError;

/// How long a download may take in all.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// The hosts Discord serves attachments from.
const DISCORD_HOSTS: [&str; 2] = ["cdn.discordapp.com", "media.discordapp.net"];

/// Whether `url` may be fetched: with an injected API base (`local`), only
/// `http(s)` on a loopback address; otherwise only `https` on Discord's
/// attachment hosts.
pub fn allowed(url: &str, local: bool) -> bool {
    let Ok(url) = reqwest::Url::parse(url) else {
        return false;
    };
    let Some(host) = url.host_str() else {
        return false;
    };
    if local {
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let loopback = host.eq_ignore_ascii_case("localhost")
            || bare
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        matches!(url.scheme(), "http" | "https") && loopback
    } else {
        url.scheme() == "https" && DISCORD_HOSTS.iter().any(|h| host.eq_ignore_ascii_case(h))
    }
}

/// The bytes of `file`, at most `max` of them: refused (as the user's
/// error, naming the limit) when the attachment says it is larger, before
/// any download, or when more arrives than it said.
pub async fn attachment(
    http: &serenity::Http,
    file: &serenity::Attachment,
    max: usize,
) -> Result<Vec<u8>, AppError> {
    let too_big = || {
        AppError::user(format!(
            "file: {} is larger than {} kB, the most a sheet file may be.",
            file.filename,
            max / 1024
        ))
    };
    if file.size as usize > max {
        return Err(too_big());
    }
    // `proxy` is the injected API base (tests, the sandbox); `None` in
    // production.
    let local = http.proxy.is_some();
    if !allowed(&file.url, local) {
        return Err(AppError::Internal(format!(
            "refused to download an attachment from {}",
            file.url
        )));
    }
    let client = reqwest::Client::builder()
        .timeout(TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| AppError::Internal(format!("HTTP client: {e}")))?;
    let failed = |e: reqwest::Error| {
        tracing::warn!(error = %e, "attachment download failed");
        AppError::user("file: the file could not be downloaded from Discord; try again.")
    };
    let mut resp = client
        .get(file.url.as_str())
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .map_err(failed)?;
    let mut bytes = Vec::with_capacity((file.size as usize).min(max));
    while let Some(chunk) = resp.chunk().await.map_err(failed)? {
        if bytes.len() + chunk.len() > max {
            return Err(too_big());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::allowed;

    #[test]
    fn only_discord_or_loopback_urls_are_fetched() {
        let cdn = "https://cdn.discordapp.com/attachments/1/2/a.json?ex=1";
        assert!(allowed(cdn, false));
        assert!(allowed(
            "https://media.discordapp.net/attachments/1/2/a.json",
            false
        ));
        assert!(!allowed("http://cdn.discordapp.com/a.json", false));
        assert!(!allowed("https://example.com/a.json", false));
        assert!(!allowed("http://127.0.0.1:9/a.json", false));
        // Against an injected API base, only loopback.
        assert!(allowed("http://127.0.0.1:4242/attachments/1/a.json", true));
        assert!(allowed("http://[::1]:4242/a.json", true));
        assert!(allowed("http://localhost:4242/a.json", true));
        assert!(!allowed(cdn, true));
        assert!(!allowed("http://10.0.0.1/a.json", true));
        assert!(!allowed("file:///etc/passwd", true));
        assert!(!allowed("not a url", true));
    }
}
