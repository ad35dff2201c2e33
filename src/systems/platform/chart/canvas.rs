//! A palette-indexed raster to draw charts on: filled rectangles, lines,
//! and text in a tiny built-in 3×5 pixel font (digits, capital letters and
//! a little punctuation), so no font files or system libraries are needed.

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
}

/// RGB of each ink, in index order.
pub const PALETTE: [[u8; 3]; 7] = [
    [0x2b, 0x2d, 0x31],
    [0x3f, 0x41, 0x47],
    [0x94, 0x9b, 0xa4],
    [0xf2, 0xf3, 0xf5],
    [0x58, 0x65, 0xf2],
    [0xfe, 0xe7, 0x5c],
    [0xed, 0x42, 0x45],
];

/// Glyph advance in font pixels (3 wide plus 1 of spacing).
const ADVANCE: usize = 4;
/// Glyph height in font pixels.
pub const GLYPH_HEIGHT: usize = 5;

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
                for rx in 0..3 {
                    if bits & (0b100 >> rx) != 0 {
                        self.fill(gx + rx * scale, y + ry * scale, scale, scale, c);
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

/// The 3×5 bitmap of a character: five rows, the top three bits of each
/// (`0b100` is the left column).
fn glyph(c: char) -> [u8; 5] {
    match c.to_ascii_uppercase() {
        '0' => [0b111, 0b101, 0b101, 0b101, 0b111],
        '1' => [0b010, 0b110, 0b010, 0b010, 0b111],
        '2' => [0b111, 0b001, 0b111, 0b100, 0b111],
        '3' => [0b111, 0b001, 0b111, 0b001, 0b111],
        '4' => [0b101, 0b101, 0b111, 0b001, 0b001],
        '5' => [0b111, 0b100, 0b111, 0b001, 0b111],
        '6' => [0b111, 0b100, 0b111, 0b101, 0b111],
        '7' => [0b111, 0b001, 0b001, 0b010, 0b010],
        '8' => [0b111, 0b101, 0b111, 0b101, 0b111],
        '9' => [0b111, 0b101, 0b111, 0b001, 0b111],
        'A' => [0b010, 0b101, 0b111, 0b101, 0b101],
        'B' => [0b110, 0b101, 0b110, 0b101, 0b110],
        'C' => [0b011, 0b100, 0b100, 0b100, 0b011],
        'D' => [0b110, 0b101, 0b101, 0b101, 0b110],
        'E' => [0b111, 0b100, 0b110, 0b100, 0b111],
        'F' => [0b111, 0b100, 0b110, 0b100, 0b100],
        'G' => [0b011, 0b100, 0b101, 0b101, 0b011],
        'H' => [0b101, 0b101, 0b111, 0b101, 0b101],
        'I' => [0b111, 0b010, 0b010, 0b010, 0b111],
        'J' => [0b001, 0b001, 0b001, 0b101, 0b010],
        'K' => [0b101, 0b101, 0b110, 0b101, 0b101],
        'L' => [0b100, 0b100, 0b100, 0b100, 0b111],
        'M' => [0b101, 0b111, 0b111, 0b101, 0b101],
        'N' => [0b110, 0b101, 0b101, 0b101, 0b101],
        'O' => [0b010, 0b101, 0b101, 0b101, 0b010],
        'P' => [0b110, 0b101, 0b110, 0b100, 0b100],
        'Q' => [0b010, 0b101, 0b101, 0b110, 0b011],
        'R' => [0b110, 0b101, 0b110, 0b101, 0b101],
        'S' => [0b011, 0b100, 0b010, 0b001, 0b110],
        'T' => [0b111, 0b010, 0b010, 0b010, 0b010],
        'U' => [0b101, 0b101, 0b101, 0b101, 0b111],
        'V' => [0b101, 0b101, 0b101, 0b101, 0b010],
        'W' => [0b101, 0b101, 0b111, 0b111, 0b101],
        'X' => [0b101, 0b101, 0b010, 0b101, 0b101],
        'Y' => [0b101, 0b101, 0b010, 0b010, 0b010],
        'Z' => [0b111, 0b001, 0b010, 0b100, 0b111],
        ' ' => [0, 0, 0, 0, 0],
        '.' => [0, 0, 0, 0, 0b010],
        ',' => [0, 0, 0, 0b010, 0b100],
        '%' => [0b101, 0b001, 0b010, 0b100, 0b101],
        '-' => [0, 0, 0b111, 0, 0],
        '+' => [0, 0b010, 0b111, 0b010, 0],
        ':' => [0, 0b010, 0, 0b010, 0],
        '=' => [0, 0b111, 0, 0b111, 0],
        '/' => [0b001, 0b001, 0b010, 0b100, 0b100],
        '(' => [0b001, 0b010, 0b010, 0b010, 0b001],
        ')' => [0b100, 0b010, 0b010, 0b010, 0b100],
        '<' => [0b001, 0b010, 0b100, 0b010, 0b001],
        '>' => [0b100, 0b010, 0b001, 0b010, 0b100],
        '≥' => [0b100, 0b010, 0b001, 0b010, 0b111],
        '·' => [0, 0, 0b010, 0, 0],
        '×' => [0, 0b101, 0b010, 0b101, 0],
        _ => [0b111, 0b101, 0b101, 0b101, 0b111],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_drawn_where_asked() {
        let mut c = Canvas::new(20, 10);
        c.text(1, 1, "1", 1, ink::TEXT);
        // "1": the middle column is lit on every row.
        for y in 1..6 {
            assert_eq!(c.get(2, y), Some(ink::TEXT));
        }
        assert_eq!(c.get(0, 0), Some(ink::BACKGROUND));
        assert_eq!(Canvas::text_width("12", 2), 14);
        assert_eq!(Canvas::text_width("", 2), 0);
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
