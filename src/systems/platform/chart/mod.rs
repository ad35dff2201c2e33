//! Bar charts as PNG images, for `/odds` and `/stats`.
//!
//! Drawn by hand on a palette raster ([`canvas`]) and written by a small
//! PNG encoder ([`png`]): no font files, no system libraries and no new
//! crates beyond zlib and CRC-32, which the tree already builds. Labels use
//! a built-in 3×5 pixel font (scaled ×2); the embed carries the exact
//! numbers, the picture the shape.
//!
//! Module map:
//! - [`canvas`]: the raster, lines, rectangles and the pixel font.
//! - [`png`]: the PNG writer (and a header reader for checks).

pub mod canvas;
pub mod png;

use canvas::{ink, Canvas, GLYPH_HEIGHT};

/// Image width in pixels.
pub const WIDTH: usize = 800;
/// Height of one panel in pixels.
pub const PANEL_HEIGHT: usize = 280;
/// Most panels in one image.
pub const MAX_PANELS: usize = 4;
/// Most bars in one panel (more are dropped from the right).
pub const MAX_BARS: usize = 120;

const SCALE: usize = 2;
const LEFT: usize = 72;
const RIGHT: usize = 16;
const TOP: usize = 40;
const BOTTOM: usize = 34;

/// One bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// The label under it (short: digits and capitals read best).
    pub label: String,
    /// Its height (a probability in percent mode, else a count).
    pub value: f64,
    /// Drawn in the highlight colour.
    pub highlight: bool,
}

impl Bar {
    /// A plain bar.
    pub fn new(label: impl Into<String>, value: f64) -> Self {
        Self {
            label: label.into(),
            value,
            highlight: false,
        }
    }

    /// A highlighted bar when `on`.
    pub fn highlighted(mut self, on: bool) -> Self {
        self.highlight = on;
        self
    }
}

/// How the vertical axis reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// Values are probabilities (0-1), shown as percentages.
    Percent,
    /// Values are counts.
    Count,
}

/// One chart panel.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// The caption above the plot.
    pub title: String,
    /// The bars, left to right.
    pub bars: Vec<Bar>,
    /// How to label the vertical axis.
    pub axis: Axis,
    /// A dashed horizontal reference line (e.g. the expected count).
    pub reference: Option<f64>,
}

impl Panel {
    /// A panel with no reference line.
    pub fn new(title: impl Into<String>, axis: Axis, bars: Vec<Bar>) -> Self {
        Self {
            title: title.into(),
            bars,
            axis,
            reference: None,
        }
    }
}

/// Draws the panels one above the other and returns the PNG bytes.
pub fn render(panels: &[Panel]) -> Vec<u8> {
    draw(panels).to_png()
}

/// Draws the panels on a canvas (see [`render`]).
pub fn draw(panels: &[Panel]) -> Canvas {
    let panels = &panels[..panels.len().min(MAX_PANELS)];
    let mut c = Canvas::new(WIDTH, PANEL_HEIGHT * panels.len().max(1));
    for (i, p) in panels.iter().enumerate() {
        draw_panel(&mut c, i * PANEL_HEIGHT, p);
    }
    c
}

/// A "nice" tick step (1, 2 or 5 × 10ⁿ) giving about `ticks` intervals up to `max`.
fn nice_step(max: f64, ticks: f64) -> f64 {
    if max <= 0.0 || !max.is_finite() {
        return 1.0;
    }
    let raw = max / ticks;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let m = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * mag
}

/// A tick label.
fn tick_label(v: f64, step: f64, axis: Axis) -> String {
    match axis {
        Axis::Percent => {
            let pct = v * 100.0;
            let step_pct = step * 100.0;
            let decimals = if step_pct >= 1.0 {
                0
            } else if step_pct >= 0.1 {
                1
            } else if step_pct >= 0.01 {
                2
            } else {
                3
            };
            format!("{pct:.decimals$}%")
        }
        Axis::Count => format!("{}", v.round() as i64),
    }
}

/// A value label over a bar.
fn value_label(v: f64, axis: Axis) -> String {
    match axis {
        Axis::Percent => {
            let pct = v * 100.0;
            if pct >= 99.95 && v < 1.0 {
                ">99.9".into()
            } else if pct > 0.0 && pct < 0.05 {
                "<0.1".into()
            } else {
                format!("{pct:.1}")
            }
        }
        Axis::Count => format!("{}", v.round() as i64),
    }
}

fn draw_panel(c: &mut Canvas, top: usize, p: &Panel) {
    let bars = &p.bars[..p.bars.len().min(MAX_BARS)];
    c.text(16, top + 12, &p.title, SCALE, ink::TEXT);
    let plot_left = LEFT;
    let plot_right = WIDTH - RIGHT;
    let plot_top = top + TOP;
    let plot_bottom = top + PANEL_HEIGHT - BOTTOM;
    let plot_h = plot_bottom - plot_top;
    let plot_w = plot_right - plot_left;

    let max_v = bars
        .iter()
        .map(|b| b.value)
        .chain(p.reference)
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    let mut step = nice_step(max_v, 4.0);
    if p.axis == Axis::Count {
        step = step.max(1.0).round();
    }
    let top_v = ((max_v / step).ceil() * step).max(step);
    let y_of = |v: f64| -> usize {
        let frac = (v / top_v).clamp(0.0, 1.0);
        plot_bottom - (frac * plot_h as f64).round() as usize
    };

    // Grid and tick labels.
    let ticks = (top_v / step).round() as usize;
    for i in 0..=ticks {
        let v = step * i as f64;
        let y = y_of(v);
        c.hline(plot_left, y, plot_w, ink::GRID, 0);
        let label = tick_label(v, step, p.axis);
        let ty = y.saturating_sub(GLYPH_HEIGHT * SCALE / 2);
        c.text_right(plot_left - 8, ty, &label, SCALE, ink::MUTED);
    }
    c.vline(plot_left, plot_top, plot_h + 1, ink::MUTED);
    c.hline(plot_left, plot_bottom, plot_w, ink::MUTED, 0);

    if bars.is_empty() {
        return;
    }
    let slot = plot_w as f64 / bars.len() as f64;
    let bar_w = ((slot * 0.7).round() as usize).max(1);
    // Thin the labels so they never overlap.
    let widest = bars
        .iter()
        .map(|b| Canvas::text_width(&b.label, SCALE))
        .max()
        .unwrap_or(0);
    let every = ((widest as f64 + 6.0) / slot).ceil().max(1.0) as usize;
    let value_w = bars
        .iter()
        .map(|b| Canvas::text_width(&value_label(b.value, p.axis), SCALE))
        .max()
        .unwrap_or(0);
    let show_values = (value_w as f64 + 4.0) <= slot;

    for (i, b) in bars.iter().enumerate() {
        let cx = plot_left + (slot * (i as f64 + 0.5)).round() as usize;
        let x = cx.saturating_sub(bar_w / 2);
        let y = y_of(b.value.max(0.0));
        let colour = if b.highlight {
            ink::HIGHLIGHT
        } else {
            ink::BAR
        };
        if y < plot_bottom {
            c.fill(x, y, bar_w, plot_bottom - y, colour);
        }
        if i % every == 0 || b.highlight {
            let colour = if b.highlight {
                ink::HIGHLIGHT
            } else {
                ink::TEXT
            };
            c.text_centred(cx, plot_bottom + 8, &b.label, SCALE, colour);
        }
        if show_values && b.value > 0.0 {
            let label = value_label(b.value, p.axis);
            let ly = y
                .saturating_sub(GLYPH_HEIGHT * SCALE + 4)
                .max(plot_top - 14);
            c.text_centred(cx, ly, &label, SCALE, ink::MUTED);
        }
    }
    if let Some(r) = p.reference.filter(|r| r.is_finite()) {
        let y = y_of(r);
        c.hline(plot_left, y, plot_w, ink::REFERENCE, 6);
        c.hline(plot_left, y + 1, plot_w, ink::REFERENCE, 6);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(1.0, 4.0), 0.5);
        assert_eq!(nice_step(0.3, 4.0), 0.1);
        assert_eq!(nice_step(37.0, 4.0), 10.0);
        assert_eq!(nice_step(0.0, 4.0), 1.0);
        assert_eq!(tick_label(0.25, 0.05, Axis::Percent), "25%");
        assert_eq!(tick_label(0.005, 0.005, Axis::Percent), "0.5%");
        assert_eq!(value_label(0.625, Axis::Percent), "62.5");
        assert_eq!(value_label(0.99999, Axis::Percent), ">99.9");
        assert_eq!(value_label(12.0, Axis::Count), "12");
    }

    #[test]
    fn a_chart_is_a_decodable_png_with_bars_in_place() {
        let panel = Panel {
            title: "P(PASS) BY TARGET".into(),
            axis: Axis::Percent,
            bars: vec![
                Bar::new("5", 0.9),
                Bar::new("6", 0.5).highlighted(true),
                Bar::new("7", 0.0),
            ],
            reference: Some(0.25),
        };
        let canvas = draw(&[panel.clone(), panel.clone()]);
        assert_eq!((canvas.width, canvas.height), (WIDTH, 2 * PANEL_HEIGHT));
        let bytes = render(&[panel]);
        let (w, h, palette, pixels) = png::decode(&bytes);
        assert_eq!((w as usize, h as usize), (WIDTH, PANEL_HEIGHT));
        assert_eq!(palette.len(), canvas::PALETTE.len());
        // The highlighted bar is drawn in its colour just above the axis.
        let slot = (WIDTH - LEFT - RIGHT) as f64 / 3.0;
        let cx = LEFT + (slot * 1.5).round() as usize;
        let y = PANEL_HEIGHT - BOTTOM - 2;
        assert_eq!(pixels[y * WIDTH + cx], ink::HIGHLIGHT);
        let cx0 = LEFT + (slot * 0.5).round() as usize;
        assert_eq!(pixels[y * WIDTH + cx0], ink::BAR);
        // The empty bar leaves the background.
        let cx2 = LEFT + (slot * 2.5).round() as usize;
        assert_eq!(pixels[(y - 20) * WIDTH + cx2], ink::BACKGROUND);
        assert!(bytes.len() < 40_000, "{} bytes", bytes.len());
    }

    #[test]
    fn many_bars_and_empty_panels_do_not_panic() {
        let bars: Vec<Bar> = (1..=200)
            .map(|i| Bar::new(i.to_string(), i as f64))
            .collect();
        let p = Panel::new("D100", Axis::Count, bars);
        let e = Panel::new("EMPTY", Axis::Count, vec![]);
        let bytes = render(&[p, e]);
        assert_eq!(
            png::dimensions(&bytes),
            Some((WIDTH as u32, 2 * PANEL_HEIGHT as u32))
        );
        assert_eq!(
            png::dimensions(&render(&[])),
            Some((WIDTH as u32, PANEL_HEIGHT as u32))
        );
    }
}
