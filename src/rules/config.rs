//! Rules strings: `VARIANT[:key=value,...]`, e.g. `go:scoring=territory,ko=positional`,
//! `stones:threshold=7,compensation=6`, `stoical:snapback=on`, any of them with `walls=C3+G7`.
//! Any of them with `torus=on` is played on a torus (RULES.md 5.1).
//! The same syntax serves `tengen gtp --rules`, GTP `tengen-rules`, and SGF `RU`.

use super::war::{Army, WarConfig, WarPreset};
use super::{KoRule, Scoring, Standard, Stoical, Stones, Variant};
use crate::board::{Board, Geometry, Point, Topology, MAX_SIZE};
use std::fmt;

/// Komi: the variant's default until a controller or the rules string sets one.
#[derive(Copy, Clone, PartialEq, Debug, Default)]
pub enum Komi {
    #[default]
    Default,
    Set(f64),
}

/// The variant's options as data; only the chosen variant's fields are used.
#[derive(Clone, PartialEq, Debug)]
pub struct VariantConfig {
    pub variant: Variant,
    pub go: Standard,
    pub stones: Stones,
    pub snapback: bool,
    /// War Go's armies and preset (its komi is `RulesConfig::komi`).
    pub war: WarConfig,
}

/// A complete rules choice: variant, options, komi and walls.
#[derive(Clone, PartialEq, Debug)]
pub struct RulesConfig {
    pub variant: VariantConfig,
    pub komi: Komi,
    /// Walls as (column, row from the bottom); those off a smaller board are ignored there.
    pub walls: Vec<(usize, usize)>,
    /// The board's edges wrap (`torus=on`, RULES.md 5.1), in any variant.
    pub torus: bool,
}

/// Why a rules string was refused. GTP answers `unknown rules: <reason>`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

impl Default for RulesConfig {
    fn default() -> Self {
        RulesConfig {
            variant: VariantConfig {
                variant: Variant::Go,
                go: Standard::default(),
                stones: Stones::default(),
                snapback: false,
                war: WarConfig::default(),
            },
            komi: Komi::Default,
            walls: Vec::new(),
            torus: false,
        }
    }
}

fn parse_switch(key: &str, v: &str) -> Result<bool, RulesError> {
    match v {
        "on" | "true" | "yes" | "1" | "allowed" => Ok(true),
        "off" | "false" | "no" | "0" | "forbidden" => Ok(false),
        _ => Err(RulesError(format!("{key} takes on or off, not '{v}'"))),
    }
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

impl RulesConfig {
    pub fn variant(&self) -> Variant {
        self.variant.variant
    }

    /// The komi in force: the one set, else 7.5 (area) or 6.5 (territory); Stones has none.
    pub fn komi_value(&self) -> f64 {
        match (self.komi, self.variant.variant) {
            (_, Variant::Stones) => 0.0,
            (Komi::Set(k), _) => k,
            (Komi::Default, Variant::Go) if self.variant.go.scoring == Scoring::Territory => 6.5,
            (Komi::Default, _) => 7.5,
        }
    }

    /// Standard Go's rules with komi resolved. Phantom Go's true game is standard Go with area
    /// scoring, positional superko and suicide forbidden (RULES.md 5.2), whatever `go` holds.
    pub fn standard(&self) -> Standard {
        if self.variant.variant == Variant::Phantom {
            return Standard {
                scoring: Scoring::Area,
                ko: KoRule::Positional,
                suicide_allowed: false,
                button: false,
                komi: self.komi_value(),
                topology: std::marker::PhantomData,
            };
        }
        Standard { komi: self.komi_value(), ..self.variant.go.clone() }
    }

    /// The board size a new engine starts on when no size is given: 9 for Phantom Go (RULES.md
    /// 5.2: 9x9 and 13x13 are its usual boards), 11 on a torus (5.1), 19 otherwise.
    pub fn default_size(&self) -> usize {
        if self.variant.variant == Variant::Phantom {
            9
        } else if self.torus {
            // The size RULES.md 5.1 plays a torus on.
            11
        } else {
            19
        }
    }

    /// War Go's rules with komi resolved.
    pub fn war(&self) -> WarConfig {
        WarConfig { komi: self.komi_value(), ..self.variant.war.clone() }
    }

    pub fn stones(&self) -> Stones {
        self.variant.stones.clone()
    }

    pub fn stoical(&self) -> Stoical {
        Stoical { snapback: self.variant.snapback, komi: self.komi_value(), ..Stoical::default() }
    }

    /// An empty board of `size` with this configuration's walls (those that fit on it), of shape
    /// `T` (the caller picks it from `torus`).
    pub fn board<T: Topology>(&self, size: usize) -> Board<T> {
        let geo = Geometry::new(size);
        let walls: Vec<Point> = self
            .walls
            .iter()
            .filter(|&&(x, y)| x < size && y < size)
            .map(|&(x, y)| geo.point(x, y))
            .collect();
        Board::shaped(size, &walls)
    }

    /// The smallest board these rules are played on: 3 on a torus (RULES.md 5.1), else 2.
    pub fn min_size(&self) -> usize {
        if self.torus {
            crate::board::MIN_TORUS_SIZE
        } else {
            crate::board::MIN_SIZE
        }
    }

    /// Parses a rules string. Komi is `Komi::Default` unless the string sets it.
    pub fn parse(s: &str) -> Result<RulesConfig, RulesError> {
        let s = s.trim();
        let (name, opts) = match s.split_once(':') {
            Some((n, o)) => (n, o),
            None => (s, ""),
        };
        let mut cfg = RulesConfig::default();
        cfg.variant.variant = match variant_named(name) {
            Some(v) => v,
            None if name.trim().is_empty() => {
                return Err(RulesError("no variant named (go, stones, stoical, phantom or war)".into()))
            }
            None => {
                let other = name.trim().to_ascii_lowercase();
                return Err(RulesError(format!(
                    "unknown variant '{other}' (go, stones, stoical, phantom or war)"
                )));
            }
        };
        let variant = cfg.variant.variant;
        for item in opts.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(RulesError(format!("'{item}' is not key=value")));
            };
            let (key, value) = (key.trim().to_ascii_lowercase(), value.trim().to_ascii_lowercase());
            let (k, v) = (key.as_str(), value.as_str());
            match (variant, k) {
                (_, "walls") => cfg.walls = parse_walls(v)?,
                (Variant::Go | Variant::Stones | Variant::Stoical, "torus") => {
                    cfg.torus = parse_switch(k, v)?
                }
                (Variant::Go | Variant::Stoical | Variant::Phantom | Variant::War, "komi") => {
                    let komi: f64 =
                        v.parse().map_err(|_| RulesError(format!("komi '{v}' is not a number")))?;
                    let komi = checked_komi(komi).ok_or_else(|| {
                        RulesError(format!("komi '{v}' is not a multiple of 0.5 within 1000"))
                    })?;
                    cfg.komi = Komi::Set(komi);
                }
                (Variant::Go, "scoring") => {
                    cfg.variant.go.scoring = match v {
                        "area" | "chinese" => Scoring::Area,
                        "territory" | "japanese" => Scoring::Territory,
                        _ => return Err(RulesError(format!("scoring is area or territory, not '{v}'"))),
                    }
                }
                (Variant::Go, "ko") => {
                    cfg.variant.go.ko = match v {
                        "simple" => KoRule::Simple,
                        "positional" | "superko" => KoRule::Positional,
                        "situational" => KoRule::Situational,
                        _ => {
                            return Err(RulesError(format!(
                                "ko is simple, positional or situational, not '{v}'"
                            )))
                        }
                    }
                }
                (Variant::Go, "suicide") => cfg.variant.go.suicide_allowed = parse_switch(k, v)?,
                (Variant::Go, "button") => cfg.variant.go.button = parse_switch(k, v)?,
                (Variant::Stones, "threshold" | "compensation") => {
                    let n: u32 =
                        v.parse().map_err(|_| RulesError(format!("{k} '{v}' is not a whole number")))?;
                    if n > 1000 {
                        return Err(RulesError(format!("{k} {n} is out of range")));
                    }
                    if k == "threshold" {
                        cfg.variant.stones.threshold = n;
                    } else {
                        cfg.variant.stones.compensation = n;
                    }
                }
                (Variant::Stoical, "snapback") => cfg.variant.snapback = parse_switch(k, v)?,
                (Variant::War, "army") => {
                    if cfg.variant.war.preset.is_some() {
                        return Err(RulesError("a preset has no armies".into()));
                    }
                    cfg.variant.war.army = Army::parse(v).map_err(RulesError)?;
                }
                (Variant::War, "preset") => {
                    if v == "none" {
                        cfg.variant.war.preset = None;
                        continue;
                    }
                    let preset = WarPreset::parse(v).ok_or_else(|| {
                        RulesError(format!("preset is mercenary, tao-center or none, not '{v}'"))
                    })?;
                    cfg.variant.war.preset = Some(preset);
                    cfg.variant.war.army = Army::NONE;
                }
                _ => return Err(RulesError(format!("{} has no option '{k}'", variant.name()))),
            }
        }
        Ok(cfg)
    }

    /// Do these rules fit a board of `size`: all the walls on it (a wall off the board would be
    /// silently ignored), and a torus at least 3x3 (RULES.md 5.1)?
    pub fn check_walls_fit(&self, size: usize) -> Result<(), RulesError> {
        if size < self.min_size() {
            return Err(RulesError(format!("a torus is at least 3x3, not {size}x{size}")));
        }
        if let (Variant::War, Some(preset)) = (self.variant.variant, self.variant.war.preset) {
            if size != WarConfig::PRESET_SIZE {
                return Err(RulesError(format!("war:preset={} is played on 19x19 only", preset.name())));
            }
        }
        let geo = Geometry::new(MAX_SIZE);
        match self.walls.iter().find(|&&(x, y)| x >= size || y >= size) {
            Some(&(x, y)) => {
                Err(RulesError(format!("wall {} is off a {size}x{size} board", geo.vertex(geo.point(x, y)))))
            }
            None => Ok(()),
        }
    }

    /// Does `s` start like one of our rules strings (a variant name, then `:` options or nothing)?
    pub fn names_variant(s: &str) -> bool {
        variant_named(s.split(':').next().unwrap_or("")).is_some()
    }

    /// The rules that KGS's `kgs-rules` names stand for (and SGF's `RU` names: `NZ`, `Korean`),
    /// keeping this configuration's komi and walls.
    pub fn from_kgs(name: &str, base: &RulesConfig) -> Option<RulesConfig> {
        let (scoring, ko, suicide) = match name.to_ascii_lowercase().as_str() {
            "chinese" => (Scoring::Area, KoRule::Positional, false),
            "japanese" | "korean" => (Scoring::Territory, KoRule::Simple, false),
            "aga" => (Scoring::Area, KoRule::Situational, false),
            "new_zealand" | "new zealand" | "nz" => (Scoring::Area, KoRule::Situational, true),
            "tromp-taylor" | "tromp_taylor" => (Scoring::Area, KoRule::Positional, true),
            _ => return None,
        };
        let mut cfg = RulesConfig {
            komi: base.komi,
            walls: base.walls.clone(),
            torus: base.torus,
            ..RulesConfig::default()
        };
        cfg.variant.go = Standard { scoring, ko, suicide_allowed: suicide, ..Standard::default() };
        Some(cfg)
    }
}

/// The variant a rules string's name stands for (case and surrounding blanks aside).
fn variant_named(name: &str) -> Option<Variant> {
    match name.trim().to_ascii_lowercase().as_str() {
        "go" | "standard" => Some(Variant::Go),
        "stones" => Some(Variant::Stones),
        "stoical" | "stoical-go" | "stoicalgo" => Some(Variant::Stoical),
        "phantom" | "phantom-go" | "phantomgo" => Some(Variant::Phantom),
        "war" | "war-go" | "wargo" => Some(Variant::War),
        _ => None,
    }
}

/// `komi` as RULES.md allows it, wherever it comes from (GTP, a rules string, a file, a flag): a
/// multiple of 0.5 (results and draws count in half points), at most 1000 either way (every count
/// stays exact); -0 comes back as 0, which prints as `0`. `None` for any other value.
pub fn checked_komi(komi: f64) -> Option<f64> {
    (komi.is_finite() && komi.abs() <= 1000.0 && (komi * 2.0).fract() == 0.0).then_some(komi + 0.0)
}

fn parse_walls(v: &str) -> Result<Vec<(usize, usize)>, RulesError> {
    if v.is_empty() || v == "none" {
        return Ok(Vec::new());
    }
    let geo = Geometry::new(MAX_SIZE);
    let mut walls = Vec::new();
    for name in v.split('+').map(str::trim) {
        let p = geo.parse_vertex(name).ok_or_else(|| RulesError(format!("wall '{name}' is not a vertex")))?;
        let xy = geo.xy(p);
        if !walls.contains(&xy) {
            walls.push(xy);
        }
    }
    walls.sort_by_key(|&(x, y)| (y, x));
    Ok(walls)
}

impl fmt::Display for RulesConfig {
    /// The complete rules string, every default spelled out (but `torus=off`, which strings written
    /// before the torus never said); `parse` reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = &self.variant;
        match v.variant {
            Variant::Go => {
                let g = &v.go;
                write!(
                    f,
                    "go:scoring={},ko={},suicide={},button={},komi={}",
                    match g.scoring {
                        Scoring::Area => "area",
                        Scoring::Territory => "territory",
                    },
                    match g.ko {
                        KoRule::Simple => "simple",
                        KoRule::Positional => "positional",
                        KoRule::Situational => "situational",
                    },
                    if g.suicide_allowed { "allowed" } else { "forbidden" },
                    on_off(g.button),
                    super::format_margin(self.komi_value()),
                )?;
            }
            Variant::Stones => {
                write!(f, "stones:threshold={},compensation={}", v.stones.threshold, v.stones.compensation)?
            }
            Variant::Stoical => write!(
                f,
                "stoical:snapback={},komi={}",
                on_off(v.snapback),
                super::format_margin(self.komi_value())
            )?,
            Variant::Phantom => write!(f, "phantom:komi={}", super::format_margin(self.komi_value()))?,
            Variant::War => match v.war.preset {
                Some(p) => {
                    write!(f, "war:preset={},komi={}", p.name(), super::format_margin(self.komi_value()))?
                }
                None => {
                    write!(f, "war:army={},komi={}", v.war.army, super::format_margin(self.komi_value()))?
                }
            },
        }
        if self.walls.is_empty() {
            f.write_str(",walls=none")?;
        } else {
            let geo = Geometry::new(MAX_SIZE);
            let names: Vec<String> = self.walls.iter().map(|&(x, y)| geo.vertex(geo.point(x, y))).collect();
            write!(f, ",walls={}", names.join("+"))?;
        }
        if self.torus {
            f.write_str(",torus=on")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_spelled_out_and_read_back() {
        for s in [
            "go",
            "stones",
            "stoical",
            "go:scoring=territory,ko=positional,suicide=allowed,button=on",
            "stones:threshold=5,compensation=0,walls=C3+G7",
            "stoical:snapback=on,komi=0.5",
            "go:torus=on",
            "stones:torus=on,walls=C3",
            "stoical:torus=off",
            "phantom",
            "phantom:komi=6.5,walls=E5",
        ] {
            let cfg = RulesConfig::parse(s).unwrap();
            let printed = cfg.to_string();
            assert_eq!(RulesConfig::parse(&printed).unwrap().to_string(), printed, "{s}");
        }
        assert_eq!(
            RulesConfig::parse("go").unwrap().to_string(),
            "go:scoring=area,ko=simple,suicide=forbidden,button=off,komi=7.5,walls=none"
        );
        assert_eq!(
            RulesConfig::parse("stones").unwrap().to_string(),
            "stones:threshold=7,compensation=6,walls=none"
        );
        // RULES.md 5.2: Phantom Go is area scoring, positional superko, no suicide, komi 7.5.
        let phantom = RulesConfig::parse("phantom").unwrap();
        assert_eq!(phantom.to_string(), "phantom:komi=7.5,walls=none");
        let std = phantom.standard();
        assert_eq!(
            (std.scoring, std.ko, std.suicide_allowed, std.komi),
            (Scoring::Area, KoRule::Positional, false, 7.5)
        );
        assert_eq!((phantom.default_size(), RulesConfig::default().default_size()), (9, 19));
        // RULES.md section 2: territory scoring defaults to komi 6.5.
        assert_eq!(RulesConfig::parse("go:scoring=territory").unwrap().komi_value(), 6.5);
    }

    #[test]
    fn walls_must_be_on_the_board() {
        let r = RulesConfig::parse("go:walls=E5+Z9").unwrap();
        assert!(r.check_walls_fit(25).is_ok());
        assert_eq!(r.check_walls_fit(9).unwrap_err().to_string(), "wall Z9 is off a 9x9 board");
        assert!(RulesConfig::parse("go:walls=E5").unwrap().check_walls_fit(5).is_ok());
        assert!(RulesConfig::parse("go:walls=E5").unwrap().check_walls_fit(4).is_err());
        let torus = RulesConfig::parse("stoical:torus=on").unwrap();
        assert_eq!(torus.check_walls_fit(2).unwrap_err().to_string(), "a torus is at least 3x3, not 2x2");
        assert!(torus.check_walls_fit(3).is_ok());
    }

    #[test]
    fn bad_strings_say_why() {
        for s in [
            "",
            "chess",
            "go:ko=maybe",
            "stones:komi=3",
            "go:scoring",
            "stoical:walls=I5",
            "go:komi=abc",
            "go:komi=7.25",
            "stoical:komi=1.1",
            "stones:threshold=-1",
            "phantom:ko=simple",
            "phantom:scoring=territory",
            "phantom:komi=0.3",
        ] {
            assert!(RulesConfig::parse(s).is_err(), "{s}");
        }
    }
}
