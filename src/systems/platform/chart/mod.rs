//! Bar charts as PNG images, for `/odds` and `/stats`.
//!
//! Drawn by hand on a palette raster ([`canvas`]) and written by a small
//! PNG encoder ([`png`]): no font files, no system libraries and no new
//! crates beyond zlib and CRC-32, which the tree already builds.
//!
//! Drawn for the size Discord shows an embed image (about 400 × 300 on
//! desktop, the phone's width on a phone): one panel per image,
//! [`WIDTH`] × [`PANEL_HEIGHT`] pixels, every text in a 5×7 pixel font at
//! ×[`SCALE`] (21 px tall, about 10 px on screen), both axes titled, and
//! bars coloured by the outcome they stand for ([`Tone`]). The embed
//! carries the exact numbers; the picture, the shape.
//!
//! Module map:
//! - [`canvas`]: the raster, lines, rectangles and the pixel font.
//! - [`png`]: the PNG writer (and a header reader for checks).

pub mod canvas;
pub mod png;

use canvas::{ink, Canvas, GLYPH_HEIGHT};

/// Image width in pixels.
pub const WIDTH: usize = 800;
/// Image height in pixels (one panel per image).
pub const PANEL_HEIGHT: usize = 400;
/// Most panels (so images) one answer draws.
pub const MAX_PANELS: usize = 4;
/// Most bars in one panel (more are dropped from the right).
pub const MAX_BARS: usize = 120;
/// The pixel font's scale: 7 font rows × 3 = 21 px tall text.
pub const SCALE: usize = 3;

const TEXT_H: usize = GLYPH_HEIGHT * SCALE;
const MARGIN: usize = 14;
const RIGHT: usize = 20;
const TOP: usize = MARGIN + TEXT_H + 18;
const BOTTOM: usize = 10 + TEXT_H + 12 + TEXT_H + MARGIN;

/// What outcome a bar stands for, which sets its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tone {
    /// No particular outcome (a count, a sweep).
    #[default]
    Plain,
    /// A success.
    Success,
    /// A partial success.
    Partial,
    /// A failure or a botch.
    Failure,
}

/// One bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// The label under it (short: digits and capitals read best).
    pub label: String,
    /// Its height (a probability in percent mode, else a count).
    pub value: f64,
    /// Drawn in the highlight colour (the case asked about).
    pub highlight: bool,
    /// The outcome it stands for.
    pub tone: Tone,
}

impl Bar {
    /// A plain bar.
    pub fn new(label: impl Into<String>, value: f64) -> Self {
        Self {
            label: label.into(),
            value,
            highlight: false,
            tone: Tone::Plain,
        }
    }

    /// A highlighted bar when `on`.
    pub fn highlighted(mut self, on: bool) -> Self {
        self.highlight = on;
        self
    }

    /// The bar of an outcome.
    pub fn toned(mut self, tone: Tone) -> Self {
        self.tone = tone;
        self
    }

    fn ink(&self) -> u8 {
        if self.highlight {
            return ink::HIGHLIGHT;
        }
        match self.tone {
            Tone::Plain => ink::BAR,
            Tone::Success => ink::SUCCESS,
            Tone::Partial => ink::PARTIAL,
            Tone::Failure => ink::FAILURE,
        }
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

impl Axis {
    /// The vertical axis's title unless a panel names it.
    fn title(self) -> &'static str {
        match self {
            Axis::Percent => "CHANCE",
            Axis::Count => "COUNT",
        }
    }
}

/// One chart panel (one image).
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
    /// What the bars along the bottom are ("TARGET", "FACE").
    pub x_title: String,
    /// What the heights are; the axis's own word ("CHANCE", "COUNT") when empty.
    pub y_title: String,
}

impl Panel {
    /// A panel with no reference line; `x_title` says what the bars are.
    pub fn new(
        title: impl Into<String>,
        axis: Axis,
        x_title: impl Into<String>,
        bars: Vec<Bar>,
    ) -> Self {
        Self {
            title: title.into(),
            bars,
            axis,
            reference: None,
            x_title: x_title.into(),
            y_title: String::new(),
        }
    }
}

/// Draws one panel and returns the PNG bytes.
pub fn render(panel: &Panel) -> Vec<u8> {
    draw(panel).to_png()
}

/// Draws one panel on a canvas (see [`render`]).
pub fn draw(panel: &Panel) -> Canvas {
    let mut c = Canvas::new(WIDTH, PANEL_HEIGHT);
    draw_panel(&mut c, panel);
    c
}

/// `text` cut with ".." so it fits `width` pixels at [`SCALE`].
fn fit(text: &str, width: usize) -> String {
    if Canvas::text_width(text, SCALE) <= width {
        return text.to_string();
    }
    let mut out: String = text.chars().collect();
    while !out.is_empty() && Canvas::text_width(&format!("{out}.."), SCALE) > width {
        out.pop();
    }
    format!("{}..", out.trim_end())
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

/// Draws a panel: its title, the value axis with its grid, the bars and
/// the reference line.
fn draw_panel(c: &mut Canvas, p: &Panel) {
    let bars = &p.bars[..p.bars.len().min(MAX_BARS)];
    c.text(
        MARGIN,
        MARGIN,
        &fit(&p.title, WIDTH - 2 * MARGIN),
        SCALE,
        ink::TEXT,
    );
    let ticks = Ticks::of(p, bars);
    let plot = Plot::beside(&ticks);
    draw_axes(c, p, &plot, &ticks);
    if bars.is_empty() {
        return;
    }
    draw_bars(c, p, bars, &plot);
    if let Some(r) = p.reference.filter(|r| r.is_finite()) {
        let y = plot.y_of(r);
        for dy in 0..3 {
            c.hline(plot.left, y + dy, plot.w, ink::REFERENCE, 10);
        }
    }
}

/// A panel's value axis: the step between its ticks, the value at the
/// plot's top and each tick's label, from 0 up.
struct Ticks {
    step: f64,
    top: f64,
    labels: Vec<String>,
}

impl Ticks {
    /// The ticks that fit `bars` (and the panel's reference line) with
    /// headroom above the tallest for its value label (a chance stops at
    /// 100 %; a label with no room above goes inside its bar).
    fn of(p: &Panel, bars: &[Bar]) -> Self {
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
        let mut top = ((max_v * 1.12 / step).ceil() * step).max(step);
        if p.axis == Axis::Percent && max_v <= 1.0 {
            top = top.min(1.0).max(step);
        }
        let ticks = (top / step).round() as usize;
        let labels = (0..=ticks)
            .map(|i| tick_label(step * i as f64, step, p.axis))
            .collect();
        Ticks { step, top, labels }
    }
}

/// Where the plot sits in a panel, and the value at its top.
struct Plot {
    left: usize,
    top: usize,
    bottom: usize,
    w: usize,
    h: usize,
    top_v: f64,
}

impl Plot {
    /// The plot right of the vertical title and the tick labels.
    fn beside(ticks: &Ticks) -> Self {
        let label_w = ticks
            .labels
            .iter()
            .map(|l| Canvas::text_width(l, SCALE))
            .max()
            .unwrap_or(0);
        let left = MARGIN + TEXT_H + 12 + label_w + 10;
        let (top, bottom) = (TOP, PANEL_HEIGHT - BOTTOM);
        Plot {
            left,
            top,
            bottom,
            w: WIDTH - RIGHT - left,
            h: bottom - top,
            top_v: ticks.top,
        }
    }

    /// The height of value `v` (clamped to the plot).
    fn y_of(&self, v: f64) -> usize {
        let frac = (v / self.top_v).clamp(0.0, 1.0);
        self.bottom - (frac * self.h as f64).round() as usize
    }
}

/// Draws the grid with its tick labels, the two axes and their titles.
fn draw_axes(c: &mut Canvas, p: &Panel, plot: &Plot, ticks: &Ticks) {
    for (i, label) in ticks.labels.iter().enumerate() {
        let y = plot.y_of(ticks.step * i as f64);
        c.hline(plot.left, y, plot.w, ink::GRID, 0);
        let ty = y.saturating_sub(TEXT_H / 2);
        c.text_right(plot.left - 10, ty, label, SCALE, ink::MUTED);
    }
    c.vline(plot.left, plot.top, plot.h + 1, ink::MUTED);
    c.hline(plot.left, plot.bottom, plot.w, ink::MUTED, 0);
    let y_title = if p.y_title.is_empty() {
        p.axis.title()
    } else {
        &p.y_title
    };
    let y_title = fit(y_title, plot.h);
    let centre = plot.top + plot.h / 2 + Canvas::text_width(&y_title, SCALE) / 2;
    c.text_up(MARGIN, centre, &y_title, SCALE, ink::MUTED);
    if !p.x_title.is_empty() {
        let cx = plot.left + plot.w / 2;
        let title = fit(&p.x_title, plot.w);
        c.text_centred(
            cx,
            PANEL_HEIGHT - MARGIN - TEXT_H,
            &title,
            SCALE,
            ink::MUTED,
        );
    }
}

/// Draws the bars with their labels (thinned so they never overlap) and,
/// where they fit, their values.
fn draw_bars(c: &mut Canvas, p: &Panel, bars: &[Bar], plot: &Plot) {
    let slot = plot.w as f64 / bars.len() as f64;
    let bar_w = ((slot * 0.7).round() as usize).max(1);
    let widest = bars
        .iter()
        .map(|b| Canvas::text_width(&b.label, SCALE))
        .max()
        .unwrap_or(0);
    let every = ((widest as f64 + 8.0) / slot).ceil().max(1.0) as usize;
    let value_w = bars
        .iter()
        .map(|b| Canvas::text_width(&value_label(b.value, p.axis), SCALE))
        .max()
        .unwrap_or(0);
    let show_values = (value_w as f64 + 6.0) <= slot;
    let highlight = bars.iter().position(|b| b.highlight);
    for (i, b) in bars.iter().enumerate() {
        let cx = plot.left + (slot * (i as f64 + 0.5)).round() as usize;
        let x = cx.saturating_sub(bar_w / 2);
        let y = plot.y_of(b.value.max(0.0));
        if y < plot.bottom {
            c.fill(x, y, bar_w, plot.bottom - y, b.ink());
        }
        if label_shown(i, every, highlight) {
            let colour = if b.highlight {
                ink::HIGHLIGHT
            } else {
                ink::TEXT
            };
            c.text_centred(cx, plot.bottom + 10, &b.label, SCALE, colour);
        }
        if show_values && b.value > 0.0 {
            let label = value_label(b.value, p.axis);
            if y >= plot.top + TEXT_H + 6 {
                c.text_centred(cx, y - TEXT_H - 6, &label, SCALE, ink::MUTED);
            } else {
                c.text_centred(cx, y + 6, &label, SCALE, ink::BACKGROUND);
            }
        }
    }
}

/// Whether bar `i`'s label is drawn, labels being thinned to one in
/// `every` so they never overlap: the highlighted bar's always, and then
/// no other within `every` bars of it (a target's label never runs into
/// its neighbours').
fn label_shown(i: usize, every: usize, highlight: Option<usize>) -> bool {
    match highlight {
        Some(h) if i == h => true,
        Some(h) if i.abs_diff(h) < every => false,
        _ => i % every == 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_highlighted_label_keeps_its_neighbours_at_a_distance() {
        // 40 targets with room for every other label; target 20 (index
        // 19) is the one asked about.
        let shown: Vec<usize> = (0..40).filter(|&i| label_shown(i, 2, Some(19))).collect();
        assert!(shown.contains(&19));
        assert!(!shown.contains(&18) && !shown.contains(&20), "{shown:?}");
        assert!(shown.contains(&16) && shown.contains(&22), "{shown:?}");
        // Any two shown labels are at least `every` apart.
        for every in 1..5 {
            for h in 0..12 {
                let shown: Vec<usize> = (0..12)
                    .filter(|&i| label_shown(i, every, Some(h)))
                    .collect();
                assert!(
                    shown.windows(2).all(|w| w[1] - w[0] >= every),
                    "every {every}, highlight {h}: {shown:?}"
                );
            }
        }
        // Without a highlight, one in `every`.
        let plain: Vec<usize> = (0..7).filter(|&i| label_shown(i, 3, None)).collect();
        assert_eq!(plain, [0, 3, 6]);
    }

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

    fn bar_x(i: usize, n: usize, left: usize) -> usize {
        let slot = (WIDTH - left - RIGHT) as f64 / n as f64;
        left + (slot * (i as f64 + 0.5)).round() as usize
    }

    #[test]
    fn a_chart_is_a_decodable_png_with_bars_in_place_and_coloured_by_outcome() {
        let panel = Panel {
            reference: Some(0.25),
            ..Panel::new(
                "P(PASS) BY TARGET",
                Axis::Percent,
                "TARGET",
                vec![
                    Bar::new("5", 0.9).toned(Tone::Success),
                    Bar::new("6", 0.5).highlighted(true),
                    Bar::new("7", 0.0),
                    Bar::new("8", 0.4).toned(Tone::Failure),
                ],
            )
        };
        let canvas = draw(&panel);
        assert_eq!((canvas.width, canvas.height), (WIDTH, PANEL_HEIGHT));
        let bytes = render(&panel);
        let (w, h, palette, pixels) = png::decode(&bytes);
        assert_eq!((w as usize, h as usize), (WIDTH, PANEL_HEIGHT));
        assert_eq!(palette.len(), canvas::PALETTE.len());
        // Tick labels "0%" … "100%": the plot starts after the widest.
        let left = MARGIN + TEXT_H + 12 + Canvas::text_width("100%", SCALE) + 10;
        let y = PANEL_HEIGHT - BOTTOM - 2;
        let at = |x: usize, y: usize| pixels[y * WIDTH + x];
        assert_eq!(at(bar_x(0, 4, left), y), ink::SUCCESS);
        assert_eq!(at(bar_x(1, 4, left), y), ink::HIGHLIGHT);
        assert_eq!(at(bar_x(3, 4, left), y), ink::FAILURE);
        // The empty bar leaves the background.
        assert_eq!(at(bar_x(2, 4, left), y - 20), ink::BACKGROUND);
        // Both axis titles are drawn in the muted ink: the vertical one in
        // the left margin, the horizontal one along the bottom.
        let lit = |x0: usize, x1: usize, y0: usize, y1: usize| {
            (y0..y1).any(|y| (x0..x1).any(|x| at(x, y) == ink::MUTED))
        };
        assert!(lit(MARGIN, MARGIN + TEXT_H, TOP, PANEL_HEIGHT - BOTTOM));
        assert!(lit(
            left,
            WIDTH,
            PANEL_HEIGHT - MARGIN - TEXT_H,
            PANEL_HEIGHT - MARGIN
        ));
        assert!(bytes.len() < 40_000, "{} bytes", bytes.len());
    }

    #[test]
    fn text_is_at_least_16_pixels_tall_and_long_titles_are_cut() {
        // A digit as drawn: its lit rows span at least 16 pixels.
        let mut c = Canvas::new(40, 40);
        c.text(0, 0, "1", SCALE, ink::TEXT);
        let rows: Vec<usize> = (0..40)
            .filter(|&y| (0..40).any(|x| c.get(x, y) == Some(ink::TEXT)))
            .collect();
        assert!(rows.len() >= 16, "{} px", rows.len());
        let long = "P(SUCCESS) BY MODIFIER · 18 SLOTS 17 FILLED AND MUCH MORE";
        let cut = fit(long, WIDTH - 2 * MARGIN);
        assert!(cut.ends_with(".."), "{cut}");
        assert!(Canvas::text_width(&cut, SCALE) <= WIDTH - 2 * MARGIN);
        assert_eq!(fit("SHORT", 400), "SHORT");
    }

    #[test]
    fn many_bars_and_empty_panels_do_not_panic() {
        let bars: Vec<Bar> = (1..=200)
            .map(|i| Bar::new(i.to_string(), i as f64))
            .collect();
        let p = Panel::new("D100", Axis::Count, "FACE", bars);
        let e = Panel::new("EMPTY", Axis::Count, "", vec![]);
        for panel in [p, e] {
            assert_eq!(
                png::dimensions(&render(&panel)),
                Some((WIDTH as u32, PANEL_HEIGHT as u32))
            );
        }
    }
}
