import TasksCommon

/// The size of one plane of an image: how many rows it has and how many bytes the pixels of
/// one row occupy (the smallest stride the plane accepts).
struct PlaneShape: Equatable {
    /// The plane's name in messages: "Y", "UV", "VU", "U", "V", "YUYV", or the packed format's channels.
    var name: String
    /// Bytes the pixels of one row occupy.
    var rowBytes: Int
    /// How `rowBytes` follows from the width, for messages ("2 x ceil(width 7 / 2)").
    var rowBytesRule: String
    /// Rows in the plane.
    var rows: Int
    /// How `rows` follows from the height, for messages ("ceil(height 5 / 2)").
    var rowsRule: String
}

/// Where one plane lies in `PixelImage.bytes`.
struct PlaneLayout: Sendable, Equatable {
    /// The offset of the plane's first byte.
    var offset: Int
    /// The distance in bytes from one row of the plane to the next.
    var bytesPerRow: Int
}

extension PixelFormat {
    /// Whether the pixels are Y'CbCr, converted to RGB with a `YUVColorRange` and `YUVColorMatrix`.
    package var isYUV: Bool {
        switch self {
        case .rgba8, .bgra8, .rgb8, .gray8: false
        case .nv12, .nv21, .i420, .i444, .yuyv: true
        }
    }

    /// The planes of an image in this format: 1, or 2 for NV12 and NV21, or 3 for I420 and I444.
    var planeNames: [String] {
        switch self {
        case .rgba8: ["RGBA"]
        case .bgra8: ["BGRA"]
        case .rgb8: ["RGB"]
        case .gray8: ["gray"]
        case .nv12: ["Y", "UV"]
        case .nv21: ["Y", "VU"]
        case .i420, .i444: ["Y", "U", "V"]
        case .yuyv: ["YUYV"]
        }
    }

    /// The shapes of the planes of a `width` x `height` image (both > 0).
    ///
    /// - Throws: `TasksError` `invalidArgumentError` when a row needs more than `Int.max` bytes.
    func planeShapes(width: Int, height: Int) throws(TasksError) -> [PlaneShape] {
        // ceil(n / 2) without overflow.
        let chromaWidth = width / 2 + width % 2, chromaHeight = height / 2 + height % 2
        let widthRule = "width \(width)", halfWidthRule = "ceil(width \(width) / 2)"
        let heightRule = "height \(height)", halfHeightRule = "ceil(height \(height) / 2)"
        func multiplied(_ value: Int, by factor: Int) throws(TasksError) -> Int {
            let (product, overflow) = value.multipliedReportingOverflow(by: factor)
            guard !overflow else {
                throw .invalidArgument("Invalid image size \(width)x\(height): a row of \(self) needs more than Int.max bytes.")
            }
            return product
        }
        let names = planeNames
        switch self {
        case .rgba8, .bgra8, .rgb8, .gray8:
            return [
                PlaneShape(
                    name: names[0], rowBytes: try multiplied(width, by: bytesPerPixel),
                    rowBytesRule: "\(widthRule) x \(bytesPerPixel) bytes per pixel", rows: height, rowsRule: heightRule)
            ]
        case .nv12, .nv21:
            return [
                PlaneShape(name: names[0], rowBytes: width, rowBytesRule: widthRule, rows: height, rowsRule: heightRule),
                PlaneShape(
                    name: names[1], rowBytes: try multiplied(chromaWidth, by: 2), rowBytesRule: "2 x \(halfWidthRule)",
                    rows: chromaHeight, rowsRule: halfHeightRule),
            ]
        case .i420:
            return [
                PlaneShape(name: names[0], rowBytes: width, rowBytesRule: widthRule, rows: height, rowsRule: heightRule),
                PlaneShape(
                    name: names[1], rowBytes: chromaWidth, rowBytesRule: halfWidthRule, rows: chromaHeight,
                    rowsRule: halfHeightRule),
                PlaneShape(
                    name: names[2], rowBytes: chromaWidth, rowBytesRule: halfWidthRule, rows: chromaHeight,
                    rowsRule: halfHeightRule),
            ]
        case .i444:
            return names.map {
                PlaneShape(name: $0, rowBytes: width, rowBytesRule: widthRule, rows: height, rowsRule: heightRule)
            }
        case .yuyv:
            return [
                PlaneShape(
                    name: names[0], rowBytes: try multiplied(chromaWidth, by: 4), rowBytesRule: "4 x \(halfWidthRule)",
                    rows: height, rowsRule: heightRule)
            ]
        }
    }
}
