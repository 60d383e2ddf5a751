"""Prints the 13-bit YUV-to-RGB coefficients of every colour matrix and range, derived from
FFmpeg swscale's `ff_yuv2rgb_coeffs` table the way `ff_yuv2rgb_c_init_tables`
(libswscale/yuv2rgb.c) derives them with brightness 0, contrast and saturation 1: the golden
values of YUVColorMatrixTests.coefficients, written independently of the Swift code.
Usage: python3 yuv_coefficients.py"""

# ff_yuv2rgb_coeffs rows {crv, cbu, cgu, cgv} (16.16), from FFmpeg 5.1's libswscale/yuv2rgb.c.
ROWS = {
    'bt601': (104597, 132201, 25675, 53279),      # SWS_CS_ITU601 / SMPTE170M / BT470BG
    'bt709': (117489, 138438, 13975, 34925),      # SWS_CS_ITU709
    'bt2020': (110013, 140363, 12277, 42626),     # SWS_CS_BT2020 (NCL and CL rows are equal)
    'smpte240m': (117579, 136230, 16907, 35559),  # SWS_CS_SMPTE240M
    'fcc': (104448, 132798, 24759, 53109),        # SWS_CS_FCC
}


def c_div(a, b):
    """C's integer division, truncating toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def round_to_int16(f):
    """swscale's roundToInt16: (f + 2^15) >> 16 with an arithmetic (flooring) shift."""
    return (f + (1 << 15)) >> 16


for name, (crv, cbu, cgu, cgv) in ROWS.items():
    chroma = (crv, -cgu, -cgv, cbu)  # V->R, U->G, V->G, U->B
    for rng in ('video', 'full'):
        if rng == 'video':
            cy, y_offset = c_div(65536 * 255, 219), 16
            terms = chroma
        else:
            cy, y_offset = 65536, 0
            terms = tuple(c_div(c * 224, 255) for c in chroma)
        fixed = [round_to_int16(c * 8192) for c in (cy,) + terms]
        print(f'(.{rng}, .{name}, {y_offset}, ' + ', '.join(str(v) for v in fixed) + '),')
