import Foundation

/// Writes tiny Matroska (MKV) files by hand, to make timestamps no encoder would write: a
/// single MJPEG video track whose frames are given with their cluster times in ticks of
/// `tickNanoseconds` (the segment's TimecodeScale). EBML ids and layout from the Matroska spec.
public enum MatroskaWriter {
    /// The file's bytes.
    /// - Parameters:
    ///   - tickNanoseconds: TimecodeScale: the length of one tick (1,000,000 for milliseconds).
    ///   - durationInTicks: the segment's Duration.
    ///   - frames: (cluster time in ticks, JPEG bytes) for each frame, in order.
    ///   - width, height: the track's pixel size.
    public static func mjpeg(
        tickNanoseconds: UInt64, durationInTicks: Double, frames: [(time: UInt64, jpeg: [UInt8])],
        width: UInt64, height: UInt64
    ) -> [UInt8] {
        let header = element(
            0x1A45_DFA3,
            element(0x4286, uint(1)) + element(0x42F7, uint(1)) + element(0x42F2, uint(4))
                + element(0x42F3, uint(8)) + element(0x4282, Array("matroska".utf8)) + element(0x4287, uint(4))
                + element(0x4285, uint(2)))
        let duration = withUnsafeBytes(of: durationInTicks.bitPattern.bigEndian, Array.init)
        let info = element(
            0x1549_A966,
            element(0x2A_D7B1, uint(tickNanoseconds)) + element(0x4489, duration)
                + element(0x4D80, Array("svt".utf8)) + element(0x5741, Array("svt".utf8)))
        let video = element(0xE0, element(0xB0, uint(width)) + element(0xBA, uint(height)))
        let track = element(
            0xAE,
            element(0xD7, uint(1)) + element(0x73C5, uint(1)) + element(0x83, uint(1))
                + element(0x86, Array("V_MJPEG".utf8)) + video)
        // A SimpleBlock: track 1, relative time 0, key frame.
        let clusters = frames.flatMap { frame in
            element(0x1F43_B675, element(0xE7, uint(frame.time)) + element(0xA3, [0x81, 0x00, 0x00, 0x80] + frame.jpeg))
        }
        // A Segment of unknown size (all ones), as live muxers write it.
        let segment: [UInt8] = [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        return header + segment + info + element(0x1654_AE6B, track) + clusters
    }

    private static func element(_ id: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let idBytes = withUnsafeBytes(of: id.bigEndian, Array.init).drop { $0 == 0 }
        return Array(idBytes) + size(payload.count) + payload
    }

    /// An EBML variable-length size: 8 bytes (marker 0x01, then 7 bytes), valid for any size here.
    private static func size(_ count: Int) -> [UInt8] {
        [0x01] + (0..<7).map { UInt8(truncatingIfNeeded: UInt64(count) >> (8 * (6 - $0))) }
    }

    private static func uint(_ value: UInt64) -> [UInt8] {
        let bytes = withUnsafeBytes(of: value.bigEndian, Array.init).drop { $0 == 0 }
        return bytes.isEmpty ? [0] : Array(bytes)
    }
}
