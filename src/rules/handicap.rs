//! Handicap stone placement (GTP's fixed placement table).

use crate::board::{Geometry, Point};

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
/// takes it, otherwise a spread over the board's star-like points and then any free points.
pub fn free_points(geo: &Geometry, n: usize, blocked: &[Point]) -> Option<Vec<Point>> {
    let size = geo.size;
    if n < 2 || n >= size * size - blocked.len() {
        return None;
    }
    let mut pts: Vec<Point> = fixed_points(geo, n.min(max_fixed(size)))
        .unwrap_or_default()
        .into_iter()
        .filter(|p| !blocked.contains(p))
        .collect();
    // Fill the rest in a checkerboard order, so that no stone is placed without liberties.
    for parity in 0..2 {
        for q in geo.points() {
            if pts.len() >= n {
                break;
            }
            let (x, y) = geo.xy(q);
            if (x + y) % 2 == parity && !pts.contains(&q) && !blocked.contains(&q) {
                pts.push(q);
            }
        }
    }
    pts.truncate(n);
    (pts.len() == n).then_some(pts)
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
}
