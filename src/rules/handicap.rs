//! Handicap stone placement (GTP's fixed placement table).

use crate::board::{Geometry, Point};

/// The most handicap stones a game takes, fixed or free (RULES.md section 2: 0 or 2..9). GTP would
/// allow a free handicap up to the board's points less one; the rules here do not.
pub const MAX_HANDICAP: usize = 9;

/// The most fixed handicap stones a board takes: none below 7x7, 4 on 7x7 and even sizes, else 9.
pub fn max_fixed(size: usize) -> usize {
    if size < 7 {
        0
    } else if size == 7 || size.is_multiple_of(2) {
        4
    } else {
        9
    }
}

/// GTP's fixed placement of `n` stones (2..=max_fixed), or `None` if the board does not take it.
pub fn fixed_points(geo: &Geometry, n: usize) -> Option<Vec<Point>> {
    let size = geo.size;
    if n < 2 || n > max_fixed(size) {
        return None;
    }
    let edge = if size >= 13 { 3 } else { 2 };
    let (lo, mid, hi) = (edge, size / 2, size - 1 - edge);
    let p = |x, y| geo.point(x, y);
    // Corners first, then the side points, then tengen for odd counts: the order of the GTP table.
    let mut pts = vec![p(lo, lo), p(hi, hi)];
    if n >= 3 {
        pts.push(p(lo, hi));
    }
    if n >= 4 {
        pts.push(p(hi, lo));
    }
    if n >= 6 {
        pts.push(p(lo, mid));
        pts.push(p(hi, mid));
    }
    if n >= 8 {
        pts.push(p(mid, lo));
        pts.push(p(mid, hi));
    }
    if n % 2 == 1 && n >= 5 {
        pts.push(p(mid, mid));
    }
    Some(pts)
}

/// Points for a free handicap of `n` stones chosen by the engine: the fixed placement where the board
/// takes it; otherwise, and for the stones beyond it, each next stone on the free point farthest from
/// the stones already placed, kept off the edge where the board has room (no nearer than the fourth
/// line from 13x13, the third from 7x7, the second from 3x3) and the more central of equals first.
/// Stones of one colour on a board with an empty point always have a liberty, so any spread is legal
/// (walls aside, which the placement checks).
pub fn free_points(geo: &Geometry, n: usize, blocked: &[Point]) -> Option<Vec<Point>> {
    let size = geo.size;
    if !(2..=MAX_HANDICAP).contains(&n) || n >= size * size - blocked.len() {
        return None;
    }
    let mut pts: Vec<Point> = fixed_points(geo, n.min(max_fixed(size)))
        .unwrap_or_default()
        .into_iter()
        .filter(|p| !blocked.contains(p))
        .collect();
    let margin = match size {
        13.. => 3,
        7..=12 => 2,
        3..=6 => 1,
        _ => 0,
    };
    let from_edge = |q: Point| {
        let (x, y) = geo.xy(q);
        x.min(y).min(size - 1 - x).min(size - 1 - y)
    };
    let dist2 = |a: Point, b: Point| {
        let ((ax, ay), (bx, by)) = (geo.xy(a), geo.xy(b));
        ax.abs_diff(bx).pow(2) + ay.abs_diff(by).pow(2)
    };
    while pts.len() < n {
        let mut best: Option<((bool, usize, usize), Point)> = None;
        for q in geo.points().filter(|q| !pts.contains(q) && !blocked.contains(q)) {
            let nearest = pts.iter().map(|&s| dist2(q, s)).min().unwrap_or(usize::MAX);
            let key = (from_edge(q) >= margin, nearest, from_edge(q));
            if best.is_none_or(|(k, _)| key > k) {
                best = Some((key, q));
            }
        }
        pts.push(best?.1);
    }
    Some(pts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nineteen_by_nineteen_table() {
        let g = Geometry::new(19);
        let names = |n| {
            let mut v: Vec<String> = fixed_points(&g, n).unwrap().iter().map(|&p| g.vertex(p)).collect();
            v.sort();
            v.join(" ")
        };
        assert_eq!(names(2), "D4 Q16");
        assert_eq!(names(3), "D16 D4 Q16");
        assert_eq!(names(5), "D16 D4 K10 Q16 Q4");
        assert_eq!(names(6), "D10 D16 D4 Q10 Q16 Q4");
        assert_eq!(names(8), "D10 D16 D4 K16 K4 Q10 Q16 Q4");
        assert_eq!(names(9).split(' ').count(), 9);
        assert!(fixed_points(&Geometry::new(19), 10).is_none());
        assert!(fixed_points(&Geometry::new(8), 5).is_none());
        assert!(fixed_points(&Geometry::new(6), 2).is_none());
        let g7 = Geometry::new(7);
        let mut v: Vec<String> = fixed_points(&g7, 4).unwrap().iter().map(|&p| g7.vertex(p)).collect();
        v.sort();
        assert_eq!(v.join(" "), "C3 C5 E3 E5");
    }

    #[test]
    fn free_handicap_takes_two_to_nine_stones_on_any_board_with_room() {
        for size in [5, 9, 13, 19] {
            let g = Geometry::new(size);
            for n in 2..=MAX_HANDICAP.min(size * size - 1) {
                let pts = free_points(&g, n, &[]).unwrap();
                assert_eq!(pts.len(), n);
                assert!(pts.iter().enumerate().all(|(i, p)| !pts[..i].contains(p)), "{size}: {n}");
            }
            for n in [0, 1, MAX_HANDICAP + 1, size * size] {
                assert!(free_points(&g, n, &[]).is_none(), "{size}: {n}");
            }
        }
        // Off the edge where there is room: the second line and up on 6x6, the centre first.
        let g6 = Geometry::new(6);
        let names: Vec<String> = free_points(&g6, 2, &[]).unwrap().iter().map(|&p| g6.vertex(p)).collect();
        assert_eq!(names, ["C3", "E5"]);
        // Beyond the fixed four of an even board, the centre and then the sides.
        let g10 = Geometry::new(10);
        let five = free_points(&g10, 5, &[]).unwrap();
        assert!(["E5", "F5", "E6", "F6"].contains(&g10.vertex(five[4]).as_str()), "{}", g10.vertex(five[4]));
        assert!(five.iter().all(|&p| {
            let (x, y) = g10.xy(p);
            (2..=7).contains(&x) && (2..=7).contains(&y)
        }));
        // A small board takes up to its points less one (GTP's bound), within the nine.
        assert_eq!(free_points(&Geometry::new(2), 3, &[]).map(|p| p.len()), Some(3));
        assert!(free_points(&Geometry::new(2), 4, &[]).is_none());
    }
}
