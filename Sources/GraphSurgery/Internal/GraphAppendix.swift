import Foundation
import TFLiteMetadata
import TasksCommon

/// The tables a graph edit appends to a base cut after one of its operators: operator codes,
/// buffers, tensors and operators, each numbered after the base's (`codeBase`, `bufferBase`,
/// `tensorBase`), so they can refer to the base's tensors and to each other.
struct GraphAppendix {
    let codeBase: Int
    let bufferBase: Int
    let tensorBase: Int
    private(set) var operatorCodes: [FlatBufferValue] = []
    private(set) var buffers: [FlatBufferValue] = []
    private(set) var tensors: [FlatBufferValue] = []
    private(set) var operators: [FlatBufferValue] = []
    /// The index and kernel version of each builtin's new operator code, so each is written once.
    private var codeIndexes: [Int32: (index: UInt32, version: Int32)] = [:]

    init(codeBase: Int, bufferBase: Int, tensorBase: Int) {
        self.codeBase = codeBase
        self.bufferBase = bufferBase
        self.tensorBase = tensorBase
    }

    /// The index of an operator code for `builtin` at kernel `version` (added on first use;
    /// raised when a later operator needs a newer kernel, as an int8 one does).
    mutating func code(_ builtin: Int32, version: Int32 = 1) -> UInt32 {
        let entry = FlatBufferValue.table([
            Schema.OperatorCode.deprecatedBuiltinCode: .uint8(UInt8(min(builtin, 127))),
            Schema.OperatorCode.version: .uint32(UInt32(version)), Schema.OperatorCode.builtinCode: .uint32(UInt32(builtin)),
        ])
        if let (index, written) = codeIndexes[builtin] {
            if version > written {
                operatorCodes[Int(index) - codeBase] = entry
                codeIndexes[builtin] = (index, version)
            }
            return index
        }
        let index = UInt32(codeBase + operatorCodes.count)
        operatorCodes.append(entry)
        codeIndexes[builtin] = (index, version)
        return index
    }

    /// A new tensor (no data unless `buffer` > 0); returns its index.
    mutating func tensor(
        _ name: String, shape: [Int], type: UInt8 = Schema.TensorType.float32, buffer: Int = 0,
        quantization: FlatBufferValue? = nil
    ) -> Int32 {
        var fields: [Int: FlatBufferValue] = [
            Schema.Tensor.shape: .int32s(shape.map { Int32($0) }), Schema.Tensor.type: .uint8(type),
            Schema.Tensor.buffer: .uint32(UInt32(buffer)), Schema.Tensor.name: .string(name),
        ]
        if let quantization { fields[Schema.Tensor.quantization] = quantization }
        tensors.append(.table(fields))
        return Int32(tensorBase + tensors.count - 1)
    }

    /// A FLOAT32 constant tensor holding `values` (little-endian, in a new 16-byte-aligned buffer).
    mutating func floatConstant(_ name: String, shape: [Int], values: [Float]) -> Int32 {
        tensor(name, shape: shape, buffer: newBuffer(values.map(\.bitPattern)))
    }

    /// An INT32 constant vector (an axis list, a shape).
    mutating func int32Constant(_ name: String, values: [Int32]) -> Int32 {
        tensor(
            name, shape: [values.count], type: Schema.TensorType.int32, buffer: newBuffer(values.map { UInt32(bitPattern: $0) }))
    }

    /// A new buffer holding `words` little-endian.
    mutating func newBuffer(_ words: [UInt32]) -> Int {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(words.count * 4)
        for word in words { withUnsafeBytes(of: word.littleEndian) { bytes += $0 } }
        return newBuffer(bytes: bytes)
    }

    /// A new 16-byte-aligned buffer holding `bytes`.
    mutating func newBuffer(bytes: [UInt8]) -> Int {
        buffers.append(.table([Schema.Buffer.data: .alignedBytes(bytes)]))
        return bufferBase + buffers.count - 1
    }

    /// Appends an operator with optional builtin options (union type and table).
    mutating func append(
        _ opcode: UInt32, inputs: [Int32], outputs: [Int32], options: (type: UInt8, table: FlatBufferValue)? = nil
    ) {
        var fields: [Int: FlatBufferValue] = [
            Schema.Operator.opcodeIndex: .uint32(opcode), Schema.Operator.inputs: .int32s(inputs),
            Schema.Operator.outputs: .int32s(outputs),
        ]
        if let options {
            fields[Schema.Operator.builtinOptionsType] = .uint8(options.type)
            fields[Schema.Operator.builtinOptions] = options.table
        }
        operators.append(.table(fields))
    }
}
