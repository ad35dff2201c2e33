//! A palette-indexed raster to draw charts on: filled rectangles, lines,
//! and text in a small built-in 5×7 pixel font (digits, capital letters and
//! some punctuation), upright or turned to read upwards (an axis title), so
//! no font files or system libraries are needed.

use super::png;

/// Chart colours (palette indices).
pub mod ink {
    /// Background (Discord's dark theme).
    pub const BACKGROUND: u8 = 0;
    /// Grid lines.
    pub const GRID: u8 = 1;
    /// Axes and secondary text.
    pub const MUTED: u8 = 2;
    /// Main text.
    pub const TEXT: u8 = 3;
    /// Bars.
    pub const BAR: u8 = 4;
    /// The highlighted bar (the asked value).
    pub const HIGHLIGHT: u8 = 5;
    /// Reference lines (the expectation).
    pub const REFERENCE: u8 = 6;
    /// A successful outcome's bar.
    pub const SUCCESS: u8 = 7;
    /// A partial outcome's bar.
    pub const PARTIAL: u8 = 8;
    /// A failed outcome's bar (a failure, a botch).
    pub const FAILURE: u8 = 9;
}

/// RGB of each ink, in index order.
pub const PALETTE: [[u8; 3]; 10] = [
    [0x2b, 0x2d, 0x31],
    [0x3f, 0x41, 0x47],
    [0x94, 0x9b, 0xa4],
    [0xf2, 0xf3, 0xf5],
    [0x58, 0x65, 0xf2],
    [0xfe, 0xe7, 0x5c],
    [0xeb, 0x45, 0x9e],
    [0x57, 0xf2, 0x87],
    [0xf0, 0xb2, 0x32],
    [0xed, 0x42, 0x45],
];

/// Glyph width in font pixels.
const GLYPH_WIDTH: usize = 5;
/// Glyph advance in font pixels (5 wide plus 1 of spacing).
const ADVANCE: usize = GLYPH_WIDTH + 1;
/// Glyph height in font pixels.
pub const GLYPH_HEIGHT: usize = 7;

/// A raster of palette indices.
pub struct Canvas {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    /// A canvas filled with the background.
    pub fn new(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            pixels: vec![ink::BACKGROUND; width * height],
        }
    }

    /// The ink at (x, y), if inside.
    pub fn get(&self, x: usize, y: usize) -> Option<u8> {
        (x < self.width && y < self.height).then(|| self.pixels[y * self.width + x])
    }

    /// Sets one pixel (ignored outside the canvas).
    pub fn set(&mut self, x: usize, y: usize, c: u8) {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x] = c;
        }
    }

    /// Fills a rectangle (clipped to the canvas).
    pub fn fill(&mut self, x: usize, y: usize, w: usize, h: usize, c: u8) {
        let x1 = (x + w).min(self.width);
        let y1 = (y + h).min(self.height);
        for yy in y.min(y1)..y1 {
            let row = yy * self.width;
            self.pixels[row + x.min(x1)..row + x1].fill(c);
        }
    }

    /// A horizontal line; `dash` > 0 draws `dash` pixels on, `dash` off.
    pub fn hline(&mut self, x: usize, y: usize, len: usize, c: u8, dash: usize) {
        for i in 0..len {
            if dash == 0 || (i / dash) % 2 == 0 {
                self.set(x + i, y, c);
            }
        }
    }

    /// A vertical line.
    pub fn vline(&mut self, x: usize, y: usize, len: usize, c: u8) {
        self.fill(x, y, 1, len, c);
    }

    /// The width of `text` drawn at `scale`, in pixels.
    pub fn text_width(text: &str, scale: usize) -> usize {
        let n = text.chars().count();
        if n == 0 {
            0
        } else {
            (n * ADVANCE - 1) * scale
        }
    }

    /// Draws `text` with its top-left corner at (x, y). Lower-case letters
    /// are drawn as capitals; unknown characters as a small box.
    pub fn text(&mut self, x: usize, y: usize, text: &str, scale: usize, c: u8) {
        for (i, ch) in text.chars().enumerate() {
            let rows = glyph(ch);
            let gx = x + i * ADVANCE * scale;
            for (ry, bits) in rows.iter().enumerate() {
                for rx in 0..GLYPH_WIDTH {
                    if bits & (0b10000 >> rx) != 0 {
                        self.fill(gx + rx * scale, y + ry * scale, scale, scale, c);
                    }
                }
            }
        }
    }

    /// Draws `text` turned a quarter to the left, reading upwards, with its
    /// first character's bottom-left corner at (x, bottom): a vertical
    /// axis title. It takes `GLYPH_HEIGHT * scale` pixels of width.
    pub fn text_up(&mut self, x: usize, bottom: usize, text: &str, scale: usize, c: u8) {
        for (i, ch) in text.chars().enumerate() {
            let rows = glyph(ch);
            let Some(gy) = bottom.checked_sub(i * ADVANCE * scale) else {
                return;
            };
            for (ry, bits) in rows.iter().enumerate() {
                for rx in 0..GLYPH_WIDTH {
                    if bits & (0b10000 >> rx) != 0 {
                        // Glyph column rx goes up from the baseline; row ry goes right.
                        if let Some(py) = gy.checked_sub((rx + 1) * scale) {
                            self.fill(x + ry * scale, py, scale, scale, c);
                        }
                    }
                }
            }
        }
    }

    /// Draws `text` centred on `cx`.
    pub fn text_centred(&mut self, cx: usize, y: usize, text: &str, scale: usize, c: u8) {
        let w = Self::text_width(text, scale);
        self.text(cx.saturating_sub(w / 2), y, text, scale, c);
    }

    /// Draws `text` ending at `right`.
    pub fn text_right(&mut self, right: usize, y: usize, text: &str, scale: usize, c: u8) {
        let w = Self::text_width(text, scale);
        self.text(right.saturating_sub(w), y, text, scale, c);
    }

    /// The image as PNG bytes.
    pub fn to_png(&self) -> Vec<u8> {
        png::encode_indexed(
            self.width as u32,
            self.height as u32,
            &PALETTE,
            &self.pixels,
        )
    }
}

/// The 5×7 bitmaps of the characters a chart writes: seven rows each, the
/// low five bits of a row (`0b10000` is the left column). One glyph a line,
/// so the table reads as a font.
#[rustfmt::skip]
const GLYPHS: [(char, [u8; 7]); 59] = [
    ('0', [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110]),
    ('1', [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110]),
    ('2', [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111]),
    ('3', [0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110]),
    ('4', [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010]),
    ('5', [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110]),
    ('6', [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110]),
    ('7', [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000]),
    ('8', [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110]),
    ('9', [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100]),
    ('A', [0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001]),
    ('B', [0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110]),
    ('C', [0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110]),
    ('D', [0b11100, 0b10010, 0b10001, 0b10001, 0b10001, 0b10010, 0b11100]),
    ('E', [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111]),
    ('F', [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b10000]),
    ('G', [0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111]),
    ('H', [0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001]),
    ('I', [0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110]),
    ('J', [0b00111, 0b00010, 0b00010, 0b00010, 0b00010, 0b10010, 0b01100]),
    ('K', [0b10001, 0b10010, 0b10100, 0b11000, 0b10100, 0b10010, 0b10001]),
    ('L', [0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111]),
    ('M', [0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001]),
    ('N', [0b10001, 0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001]),
    ('O', [0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110]),
    ('P', [0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000]),
    ('Q', [0b01110, 0b10001, 0b10001, 0b10001, 0b10101, 0b10010, 0b01101]),
    ('R', [0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001]),
    ('S', [0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110]),
    ('T', [0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100]),
    ('U', [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110]),
    ('V', [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100]),
    ('W', [0b10001, 0b10001, 0b10001, 0b10101, 0b10101, 0b10101, 0b01010]),
    ('X', [0b10001, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b10001]),
    ('Y', [0b10001, 0b10001, 0b01010, 0b00100, 0b00100, 0b00100, 0b00100]),
    ('Z', [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b11111]),
    (' ', [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000]),
    ('.', [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b01100]),
    (',', [0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b00100, 0b01000]),
    ('%', [0b11000, 0b11001, 0b00010, 0b00100, 0b01000, 0b10011, 0b00011]),
    ('-', [0b00000, 0b00000, 0b00000, 0b11111, 0b00000, 0b00000, 0b00000]),
    ('−', [0b00000, 0b00000, 0b00000, 0b11111, 0b00000, 0b00000, 0b00000]),
    ('+', [0b00000, 0b00100, 0b00100, 0b11111, 0b00100, 0b00100, 0b00000]),
    (':', [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b01100, 0b00000]),
    ('=', [0b00000, 0b00000, 0b11111, 0b00000, 0b11111, 0b00000, 0b00000]),
    ('/', [0b00000, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b00000]),
    ('(', [0b00010, 0b00100, 0b01000, 0b01000, 0b01000, 0b00100, 0b00010]),
    (')', [0b01000, 0b00100, 0b00010, 0b00010, 0b00010, 0b00100, 0b01000]),
    ('<', [0b00010, 0b00100, 0b01000, 0b10000, 0b01000, 0b00100, 0b00010]),
    ('>', [0b01000, 0b00100, 0b00010, 0b00001, 0b00010, 0b00100, 0b01000]),
    ('≥', [0b01000, 0b00100, 0b00010, 0b00100, 0b01000, 0b00000, 0b11111]),
    ('≤', [0b00010, 0b00100, 0b01000, 0b00100, 0b00010, 0b00000, 0b11111]),
    ('·', [0b00000, 0b00000, 0b00000, 0b00100, 0b00000, 0b00000, 0b00000]),
    ('×', [0b00000, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b00000]),
    ('?', [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b00000, 0b00100]),
    ('!', [0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00000, 0b00100]),
    ('\'', [0b00100, 0b00100, 0b01000, 0b00000, 0b00000, 0b00000, 0b00000]),
    ('#', [0b01010, 0b01010, 0b11111, 0b01010, 0b11111, 0b01010, 0b01010]),
    ('—', [0b00000, 0b00000, 0b00000, 0b11111, 0b00000, 0b00000, 0b00000]),
];

/// The box drawn for a character [`GLYPHS`] lacks.
const UNKNOWN: [u8; 7] = [
    0b11111, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b11111,
];

/// The 5×7 bitmap of a character ([`GLYPHS`]). Lower-case letters are drawn
/// as capitals; unknown characters as a box.
fn glyph(c: char) -> [u8; 7] {
    let c = c.to_ascii_uppercase();
    GLYPHS
        .iter()
        .find(|(g, _)| *g == c)
        .map_or(UNKNOWN, |(_, rows)| *rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_glyph_is_listed_once_in_capitals_and_others_are_a_box() {
        for (i, (c, rows)) in GLYPHS.iter().enumerate() {
            assert!(!c.is_ascii_lowercase(), "{c:?} is never looked up");
            assert!(GLYPHS[..i].iter().all(|(d, _)| d != c), "{c:?} twice");
            assert!(rows.iter().all(|r| r >> 5 == 0), "{c:?} is five wide");
            assert_eq!(glyph(*c), *rows);
        }
        assert_eq!(glyph('a'), glyph('A'));
        assert_eq!(glyph('A')[0], 0b01110);
        assert_eq!(glyph('€'), UNKNOWN);
    }

    #[test]
    fn text_is_drawn_where_asked() {
        let mut c = Canvas::new(20, 10);
        c.text(1, 1, "1", 1, ink::TEXT);
        // "1": the middle column is lit on every row.
        for y in 1..8 {
            assert_eq!(c.get(3, y), Some(ink::TEXT));
        }
        assert_eq!(c.get(0, 0), Some(ink::BACKGROUND));
        assert_eq!(Canvas::text_width("12", 2), 22);
        assert_eq!(Canvas::text_width("", 2), 0);
    }

    #[test]
    fn upward_text_is_the_glyph_turned_left() {
        let mut c = Canvas::new(10, 10);
        // "-" is the full fourth row: turned, a full column at x = 3.
        c.text_up(0, 9, "-", 1, ink::TEXT);
        for y in 4..9 {
            assert_eq!(c.get(3, y), Some(ink::TEXT), "y = {y}");
        }
        assert_eq!(c.get(3, 9), Some(ink::BACKGROUND));
        assert_eq!(c.get(2, 6), Some(ink::BACKGROUND));
        // Off the top is clipped, not a panic.
        c.text_up(0, 3, "LONG TITLE", 2, ink::TEXT);
    }

    #[test]
    fn drawing_outside_is_clipped() {
        let mut c = Canvas::new(4, 4);
        c.fill(2, 2, 10, 10, ink::BAR);
        c.text(3, 3, "WIDE TEXT", 3, ink::TEXT);
        c.hline(0, 9, 10, ink::GRID, 0);
        assert_eq!(c.get(3, 3), Some(ink::TEXT));
        assert_eq!(c.get(2, 2), Some(ink::BAR));
        assert_eq!(c.get(1, 1), Some(ink::BACKGROUND));
    }
}
