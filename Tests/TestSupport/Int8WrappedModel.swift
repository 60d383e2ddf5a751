import Foundation

/// A uint8 model wrapped to int8 input and output, exactly: a QUANTIZE op turns the new INT8
/// input into the old UINT8 one and another turns the old UINT8 output into the new INT8
/// output, each with the old tensor's scale and its zero point minus 128 (so each converts
/// `q` to `q ± 128`, without rounding). The TFLite converter's full-integer models with
/// `inference_input_type=tf.int8` have such int8 ends.
///
/// Built without rewriting the model: a new root `Model` table (and new subgraph, tensors,
/// operators) is written in front of the old FlatBuffer, referencing the old tensors,
/// operators, buffers and metadata where they are (FlatBuffers offsets point forward); the
/// old file follows unchanged, its appended zip's offsets shifted by the new bytes' length.
public enum Int8WrappedModel {
    /// TFLite's builtin operator code of QUANTIZE.
    static let quantizeCode: UInt8 = 114

    /// The wrapped model's bytes.
    /// - Parameter model: A one-subgraph model with one UINT8 input and one UINT8 output,
    ///   both with per-tensor quantization.
    public static func bytes(wrapping model: Data) -> [UInt8] {
        let old = ModelPatcher(model)
        let root = buildRoot(old)
        // A multiple of 64 keeps the old buffers' 16-byte alignment.
        let prefix = FB.prefix(root: root, identifier: "TFL3", followingAlignment: 64)
        return prefix + ZipOffsets.shifted(old.bytes, by: prefix.count)
    }

    private static func buildRoot(_ old: ModelPatcher) -> FB {
        let model = old.target(0)
        let subgraph = old.element(0, ofVector: old.target(old.field(2, of: model)))
        let tensors = vectorElements(old, old.target(old.field(0, of: subgraph)))
        let operators = vectorElements(old, old.target(old.field(3, of: subgraph)))
        let codes = vectorElements(old, old.target(old.field(1, of: model)))
        let oldInput = Int32(bitPattern: old.u32(old.target(old.field(1, of: subgraph)) + 4))
        let oldOutput = Int32(bitPattern: old.u32(old.target(old.field(2, of: subgraph)) + 4))
        let (newInput, newOutput) = (Int32(tensors.count), Int32(tensors.count + 1))
        let quantize = UInt32(codes.count)

        let newTensors = [
            int8Tensor(old, like: .input, name: "image_int8"), int8Tensor(old, like: .output, name: "scores_int8"),
        ]
        let newOperators: [FB] =
            [quantizeOperator(quantize, from: newInput, to: oldInput)] + operators.map(FB.following)
            + [quantizeOperator(quantize, from: oldOutput, to: newOutput)]
        var subgraphFields: [Int: FB] = [
            0: .tables(tensors.map(FB.following) + newTensors), 1: .int32s([newInput]), 2: .int32s([newOutput]),
            3: .tables(newOperators),
        ]
        if let name = old.optionalField(4, of: subgraph) { subgraphFields[4] = .following(old.target(name)) }

        // OperatorCode: deprecated_builtin_code and builtin_code QUANTIZE, version 2 (int8).
        let quantizeCode = FB.table([0: .uint8(quantizeCode), 2: .uint32(2), 3: .uint32(UInt32(quantizeCode))])
        var modelFields: [Int: FB] = [
            0: .uint32(3), 1: .tables(codes.map(FB.following) + [quantizeCode]), 2: .tables([.table(subgraphFields)]),
        ]
        // description, buffers, metadata_buffer, metadata and signature_defs stay the old ones.
        for id in [3, 4, 5, 6, 7] {
            if let position = old.optionalField(id, of: model) { modelFields[id] = .following(old.target(position)) }
        }
        return .table(modelFields)
    }

    private static func vectorElements(_ old: ModelPatcher, _ vector: Int) -> [Int] {
        (0..<Int(old.u32(vector))).map { old.element($0, ofVector: vector) }
    }

    /// An INT8 tensor with the shape and scale of the old tensor and its zero point minus 128.
    private static func int8Tensor(_ old: ModelPatcher, like tensor: ModelPatcher.Tensor, name: String) -> FB {
        let shape = old.target(old.field(0, of: old.tensorTable(tensor)))
        let quantization = FB.table([
            2: .floats([old.scale(of: tensor)]), 3: .int64s([old.zeroPoint(of: tensor) - 128]),
        ])
        // Type 9 is INT8; buffer 0 is the empty buffer every model has first.
        return .table([0: .following(shape), 1: .uint8(9), 2: .uint32(0), 3: .string(name), 4: quantization])
    }

    private static func quantizeOperator(_ code: UInt32, from input: Int32, to output: Int32) -> FB {
        .table([0: .uint32(code), 1: .int32s([input]), 2: .int32s([output])])
    }
}

/// Moves a zip archive appended to other bytes: its central directory's local header offsets
/// and the end record's directory offset are absolute, so bytes put in front shift them.
enum ZipOffsets {
    /// `bytes` with the offsets of its appended zip (if any) increased by `shift`.
    static func shifted(_ bytes: [UInt8], by shift: Int) -> [UInt8] {
        var bytes = bytes
        // The end of central directory record: signature PK\u{5}\u{6}, at least 22 bytes from the end.
        guard
            let end = stride(from: bytes.count - 22, through: max(0, bytes.count - 22 - 65_535), by: -1).first(where: {
                read32(bytes, $0) == 0x0605_4B50
            })
        else { return bytes }
        let entryCount = Int(read16(bytes, end + 10))
        var entry = Int(read32(bytes, end + 16))
        write32(&bytes, end + 16, read32(bytes, end + 16) + UInt32(shift))
        for _ in 0..<entryCount {
            precondition(read32(bytes, entry) == 0x0201_4B50, "a central directory entry")
            write32(&bytes, entry + 42, read32(bytes, entry + 42) + UInt32(shift))
            entry += 46 + Int(read16(bytes, entry + 28)) + Int(read16(bytes, entry + 30)) + Int(read16(bytes, entry + 32))
        }
        return bytes
    }

    private static func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    private static func read32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }
    private static func write32(_ bytes: inout [UInt8], _ at: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[at + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
}
