//! `[NEXT:name]` markers: which members a message hands the turn to, and
//! the text without its markers.

use braid_protocol::Team;

/// The names a text's `[NEXT:name]` markers give, in order (the marker's
/// word in any case; spaces around the name allowed).
pub fn next_markers(text: &str) -> Vec<String> {
    markers(text).filter(|m| m.kind == Kind::Next).map(|m| m.name.to_owned()).collect()
}

/// The text with its `[NEXT:…]` and `[FROM:…]` markers taken out, once
/// (a marker that only appears when another is removed stays), with the
/// spaces after each, the blank lines they leave at the start, and the
/// spaces at line ends. Indentation stays (code keeps its shape).
pub fn strip_markers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut any = false;
    for m in markers(text) {
        out.push_str(&text[at..m.start]);
        let rest = &text[m.end..];
        at = m.end + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
        any = true;
    }
    if !any {
        return text.to_owned();
    }
    out.push_str(&text[at..]);
    let lines: Vec<&str> = out.lines().map(str::trim_end).skip_while(|l| l.is_empty()).collect();
    lines.join("\n").trim_end().to_owned()
}

/// The members the names stand for (matched without regard to case), or
/// an error that names the team's members.
pub fn resolve(team: &Team, names: &[String]) -> Result<Vec<String>, String> {
    names
        .iter()
        .map(|n| {
            team.members.iter().find(|m| m.name.eq_ignore_ascii_case(n)).map(|m| m.name.clone()).ok_or_else(|| {
                let all: Vec<&str> = team.members.iter().map(|m| m.name.as_str()).collect();
                format!("there is no member named {n:?}; the members are {}", all.join(", "))
            })
        })
        .collect()
}

#[derive(Debug, PartialEq, Eq)]
enum Kind {
    Next,
    From,
}

struct Marker<'a> {
    kind: Kind,
    name: &'a str,
    start: usize,
    end: usize,
}

fn markers(text: &str) -> impl Iterator<Item = Marker<'_>> {
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(open) = text[from..].find('[').map(|i| i + from) {
            from = open + 1;
            let rest = &text[open + 1..];
            let kind = if starts_with_ci(rest, "NEXT:") {
                Kind::Next
            } else if starts_with_ci(rest, "FROM:") {
                Kind::From
            } else {
                continue;
            };
            let body = &rest[5..];
            let Some(close) = body.find(']') else { continue };
            let name = body[..close].trim();
            if name.is_empty() || name.contains('[') || name.contains('\n') {
                continue;
            }
            let end = open + 1 + 5 + close + 1;
            from = end;
            return Some(Marker { kind, name, start: open, end });
        }
        None
    })
}

fn starts_with_ci(text: &str, prefix: &str) -> bool {
    text.len() >= prefix.len() && text.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}
