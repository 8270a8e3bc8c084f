//! `tengen-param`: GoGui's parameter dialog for the rules and the main search settings.
//!
//! GoGui's `param` protocol: without arguments the command answers one line per parameter,
//! `[type] key value`, with types `[bool]` (0/1), `[string]` and `[list/item1/item2/...]`; with
//! `key value` it sets one parameter. GoGui quotes a value that is empty or holds spaces, so quotes
//! around the value are removed.

use super::session::{Call, Reply, Session};
use super::GtpError;
use crate::engine::{duration_from_secs, PolicyChoice};
use crate::rules::RulesConfig;

/// The parameters, in dialog order.
const KEYS: &[&str] = &[
    "variant",
    "rules",
    "playouts",
    "time_per_move",
    "threads",
    "policy",
    "mercy",
    "resign",
    "ponder",
    "dynamic_komi",
    "live_graphics",
];

pub fn param(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    if c.args.is_empty() {
        return Ok(Reply::Text(list(s)));
    }
    let key = c.args[0].as_str();
    let joined = c.args[1..].join(" ");
    let value = joined.trim().trim_matches('"').trim();
    set(s, key, value)?;
    // A remembered analysis was made with the old settings.
    s.gfx_cache = None;
    Ok(Reply::Text(String::new()))
}

fn bool_str(b: bool) -> &'static str {
    if b {
        "1"
    } else {
        "0"
    }
}

/// Every parameter with its type and current value.
fn list(s: &Session) -> String {
    let o = s.engine.options();
    let threads = o.search_threads();
    let policy = match o.policy {
        PolicyChoice::Light => "light",
        PolicyChoice::Heavy => "heavy",
    };
    let resign = o.resign_threshold.map_or("off".to_string(), |r| r.to_string());
    let lines = [
        format!("[list/go/stones/stoical/phantom] variant {}", s.engine.rules().variant().name()),
        format!("[string] rules {}", s.engine.rules()),
        format!("[string] playouts {}", o.playouts.unwrap_or(0)),
        format!("[string] time_per_move {}", o.time_per_move.map_or(0.0, |d| d.as_secs_f64())),
        format!("[string] threads {threads}"),
        format!("[list/light/heavy] policy {policy}"),
        format!("[bool] mercy {}", bool_str(o.mercy)),
        format!("[string] resign {resign}"),
        format!("[bool] ponder {}", bool_str(o.ponder)),
        format!("[string] dynamic_komi {}", o.dynamic_komi),
        format!("[bool] live_graphics {}", bool_str(s.live_gfx)),
    ];
    debug_assert_eq!(lines.len(), KEYS.len());
    lines.join("\n")
}

fn invalid(key: &str, why: &str) -> GtpError {
    GtpError::new(format!("invalid value for {key}: {why}"))
}

fn parse_bool(key: &str, v: &str) -> Result<bool, GtpError> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "true" | "on" => Ok(true),
        "0" | "false" | "off" => Ok(false),
        _ => Err(invalid(key, "expected 0 or 1")),
    }
}

/// A non-negative number; 0 stands for "no limit" where the setting allows it.
fn parse_number(key: &str, v: &str) -> Result<f64, GtpError> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(invalid(key, "expected a non-negative number")),
    }
}

fn set(s: &mut Session, key: &str, v: &str) -> Result<(), GtpError> {
    match key {
        "variant" => {
            let rules = RulesConfig::parse(v).map_err(|e| invalid(key, &e.to_string()))?;
            // As `tengen-rules` refuses them: a wall off this board would show on a later one.
            rules.check_walls_fit(s.engine.size()).map_err(|e| invalid(key, &e.to_string()))?;
            // Only the variant changes hands: options of the previous variant do not carry over,
            // komi does (as with `tengen-rules`).
            if rules.variant() != s.engine.rules().variant() {
                s.engine.set_rules(rules);
            }
        }
        "rules" => {
            let rules = RulesConfig::parse(v).map_err(|e| invalid(key, &e.to_string()))?;
            rules.check_walls_fit(s.engine.size()).map_err(|e| invalid(key, &e.to_string()))?;
            if &rules != s.engine.rules() {
                s.engine.set_rules(rules);
            }
        }
        "playouts" => {
            let n = parse_number(key, v)?;
            s.engine.options_mut().playouts = (n >= 1.0).then_some(n as u64);
        }
        "time_per_move" => {
            let t = parse_number(key, v)?;
            if t > 1e7 {
                return Err(invalid(key, "too large"));
            }
            s.engine.options_mut().time_per_move = (t > 0.0).then(|| duration_from_secs(t));
        }
        "threads" => {
            let n = parse_number(key, v)?;
            if n.fract() != 0.0 || n > 512.0 {
                return Err(invalid(key, "expected a whole number up to 512 (0: all cores)"));
            }
            s.engine.options_mut().threads = (n >= 1.0).then_some(n as usize);
        }
        "policy" => {
            s.engine.options_mut().policy = match v.to_ascii_lowercase().as_str() {
                "light" => PolicyChoice::Light,
                "heavy" => PolicyChoice::Heavy,
                _ => return Err(invalid(key, "expected light or heavy")),
            }
        }
        "resign" => {
            s.engine.options_mut().resign_threshold =
                if v.eq_ignore_ascii_case("off") || v.eq_ignore_ascii_case("never") {
                    None
                } else {
                    match v.parse::<f64>() {
                        Ok(r) if (0.0..1.0).contains(&r) => Some(r),
                        _ => return Err(invalid(key, "expected a win rate from 0 to 1, or off")),
                    }
                }
        }
        "mercy" => s.engine.options_mut().mercy = parse_bool(key, v)?,
        "ponder" => s.engine.options_mut().ponder = parse_bool(key, v)?,
        "dynamic_komi" => {
            s.engine.options_mut().dynamic_komi = v.parse().map_err(|e: String| invalid(key, &e))?;
        }
        "live_graphics" => s.live_gfx = parse_bool(key, v)?,
        _ => return Err(GtpError::new(format!("unknown parameter {key}"))),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{DynamicKomi, Engine, EngineOptions};
    use crate::rules::Variant;

    fn session() -> Session {
        Session::new(Engine::new(EngineOptions::default()))
    }

    fn send(s: &mut Session, line: &str) -> String {
        s.handle_line(line.as_bytes()).expect("a command")
    }

    #[test]
    fn every_listed_parameter_can_be_set_to_its_listed_value() {
        let mut s = session();
        let listing = send(&mut s, "tengen-param");
        let body = listing.strip_prefix("= ").unwrap().trim_end();
        let mut keys = Vec::new();
        for line in body.lines() {
            let (ty, rest) = line.split_once(' ').unwrap();
            assert!(ty.starts_with('[') && ty.ends_with(']'), "{line}");
            let (key, value) = rest.split_once(' ').unwrap();
            keys.push(key.to_string());
            assert_eq!(send(&mut s, &format!("tengen-param {key} {value}")), "= \n\n", "{line}");
        }
        assert_eq!(keys, KEYS);
        assert_eq!(send(&mut s, "tengen-param"), listing, "setting the listed values changes nothing");
    }

    #[test]
    fn settings_reach_the_engine() {
        let mut s = session();
        send(&mut s, "play b D4");
        send(&mut s, "tengen-param playouts 500");
        send(&mut s, "tengen-param time_per_move \"2.5\"");
        send(&mut s, "tengen-param threads 1");
        send(&mut s, "tengen-param policy light");
        send(&mut s, "tengen-param resign off");
        send(&mut s, "tengen-param ponder 1");
        send(&mut s, "tengen-param mercy 1");
        send(&mut s, "tengen-param dynamic_komi 5.5");
        assert_eq!(s.engine.options().dynamic_komi, DynamicKomi { black: 5.5, white: 0.0 });
        send(&mut s, "tengen-param dynamic_komi 8,1");
        assert_eq!(s.engine.options().dynamic_komi, DynamicKomi { black: 8.0, white: 1.0 });
        assert!(send(&mut s, "tengen-param dynamic_komi -1").starts_with("? invalid value for dynamic_komi"));
        assert!(send(&mut s, "tengen-param dynamic_komi 7,x").starts_with("? invalid value"));
        assert_eq!(s.engine.options().dynamic_komi.black, 8.0, "a bad value changes nothing");
        send(&mut s, "tengen-param dynamic_komi off");
        assert_eq!(s.engine.options().dynamic_komi, DynamicKomi::OFF);
        let o = s.engine.options();
        assert_eq!(o.playouts, Some(500));
        assert_eq!(o.time_per_move, Some(std::time::Duration::from_millis(2500)));
        assert_eq!(o.threads, Some(1));
        assert_eq!(o.policy, PolicyChoice::Light);
        assert_eq!(o.resign_threshold, None);
        assert!(o.ponder);
        assert!(o.mercy);
        assert_eq!(s.engine.game().moves().len(), 1, "search settings leave the game alone");
        send(&mut s, "tengen-param playouts 0");
        assert_eq!(s.engine.options().playouts, None);
    }

    #[test]
    fn rules_parameters_start_a_new_game_only_when_they_change() {
        let mut s = session();
        send(&mut s, "komi 3.5");
        send(&mut s, "play b D4");
        send(&mut s, "tengen-param variant go");
        assert_eq!(s.engine.game().moves().len(), 1);
        send(&mut s, "tengen-param variant stones");
        assert_eq!(s.engine.variant(), Variant::Stones);
        assert!(s.engine.game().moves().is_empty());
        send(&mut s, "tengen-param rules stoical:snapback=on");
        assert_eq!(
            s.engine.rules().to_string(),
            RulesConfig::parse("stoical:snapback=on,komi=3.5").unwrap().to_string()
        );
    }

    #[test]
    fn bad_values_are_refused_and_change_nothing() {
        let mut s = session();
        send(&mut s, "boardsize 5");
        let before = send(&mut s, "tengen-param");
        for line in [
            // A wall off this board, which `tengen-rules` refuses too.
            "tengen-param rules go:walls=J9",
            "tengen-param variant stones:walls=J9",
            "tengen-param playouts many",
            "tengen-param playouts -3",
            "tengen-param threads 1.5",
            "tengen-param policy medium",
            "tengen-param resign 2",
            "tengen-param ponder maybe",
            "tengen-param rules chess",
            "tengen-param colour blue",
        ] {
            assert!(send(&mut s, line).starts_with("? "), "{line}");
        }
        assert_eq!(send(&mut s, "tengen-param"), before);
    }
}
