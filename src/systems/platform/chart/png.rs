//! A minimal PNG writer for 8-bit indexed-colour images: signature, IHDR,
//! PLTE, one zlib-compressed IDAT (flate2), IEND, each chunk with its CRC-32
//! (crc32fast). Charts use a handful of colours, so a palette keeps them
//! small (a few kilobytes) and the writer tiny.

use flate2::write::ZlibEncoder;
use flate2::Compression;
use std::io::Write;

/// The eight bytes every PNG file starts with.
pub const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// Encodes `pixels` (one palette index per pixel, row by row) as a PNG.
///
/// # Panics
/// Never for consistent input; a `pixels` length other than
/// `width × height`, an empty palette or more than 256 colours is a
/// programming error and is caught by a debug assertion (release builds
/// pad or cut the data).
pub fn encode_indexed(width: u32, height: u32, palette: &[[u8; 3]], pixels: &[u8]) -> Vec<u8> {
    let (w, h) = (width as usize, height as usize);
    debug_assert_eq!(pixels.len(), w * h);
    debug_assert!(!palette.is_empty() && palette.len() <= 256);
    let mut out = Vec::with_capacity(1024 + pixels.len() / 8);
    out.extend_from_slice(&SIGNATURE);

    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    // Bit depth 8, colour type 3 (indexed), deflate, adaptive filtering, no interlace.
    ihdr.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);

    let plte: Vec<u8> = palette.iter().take(256).flatten().copied().collect();
    chunk(&mut out, b"PLTE", &plte);

    // Each row: filter type 0 (none), then its indices. Flat-coloured
    // charts compress well without per-row filtering.
    let mut raw = Vec::with_capacity(h * (w + 1));
    for y in 0..h {
        raw.push(0);
        let start = (y * w).min(pixels.len());
        let end = (start + w).min(pixels.len());
        raw.extend_from_slice(&pixels[start..end]);
        raw.resize(raw.len() + (w - (end - start)), 0);
    }
    let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
    // Writing into a Vec cannot fail.
    let _ = z.write_all(&raw);
    let idat = z.finish().unwrap_or_default();
    chunk(&mut out, b"IDAT", &idat);
    chunk(&mut out, b"IEND", &[]);
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// The width and height in a PNG's header, if `bytes` starts like a PNG.
pub fn dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || bytes[..8] != SIGNATURE || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((w, h))
}

/// Test helper: walks the chunks, checks every CRC, inflates the data and
/// returns (width, height, palette, pixels).
#[cfg(test)]
pub(crate) fn decode(bytes: &[u8]) -> (u32, u32, Vec<[u8; 3]>, Vec<u8>) {
    use std::io::Read;
    assert_eq!(&bytes[..8], &SIGNATURE);
    let mut pos = 8;
    let (mut w, mut h) = (0, 0);
    let mut palette = Vec::new();
    let mut idat = Vec::new();
    let mut ended = false;
    while pos < bytes.len() {
        let len = u32::from_be_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        let kind = &bytes[pos + 4..pos + 8];
        let data = &bytes[pos + 8..pos + 8 + len];
        let crc = u32::from_be_bytes(bytes[pos + 8 + len..pos + 12 + len].try_into().unwrap());
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(kind);
        hasher.update(data);
        assert_eq!(hasher.finalize(), crc, "bad CRC in {kind:?}");
        match kind {
            b"IHDR" => {
                w = u32::from_be_bytes(data[0..4].try_into().unwrap());
                h = u32::from_be_bytes(data[4..8].try_into().unwrap());
                assert_eq!(&data[8..], &[8, 3, 0, 0, 0]);
            }
            b"PLTE" => palette = data.chunks(3).map(|c| [c[0], c[1], c[2]]).collect(),
            b"IDAT" => idat.extend_from_slice(data),
            b"IEND" => ended = true,
            other => panic!("unexpected chunk {other:?}"),
        }
        pos += 12 + len;
    }
    assert!(ended);
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&idat[..])
        .read_to_end(&mut raw)
        .unwrap();
    assert_eq!(raw.len(), (h as usize) * (w as usize + 1));
    let mut pixels = Vec::new();
    for row in raw.chunks(w as usize + 1) {
        assert_eq!(row[0], 0, "filter byte");
        pixels.extend_from_slice(&row[1..]);
    }
    (w, h, palette, pixels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_image_round_trips() {
        let palette = [[0, 0, 0], [255, 0, 0], [0, 255, 0]];
        let pixels: Vec<u8> = (0..5 * 3).map(|i| (i % 3) as u8).collect();
        let png = encode_indexed(5, 3, &palette, &pixels);
        assert_eq!(dimensions(&png), Some((5, 3)));
        let (w, h, pal, px) = decode(&png);
        assert_eq!((w, h), (5, 3));
        assert_eq!(pal, palette.to_vec());
        assert_eq!(px, pixels);
    }

    #[test]
    fn dimensions_refuses_other_files() {
        assert_eq!(dimensions(b"GIF89a"), None);
        assert_eq!(dimensions(&[0u8; 40]), None);
    }
}
