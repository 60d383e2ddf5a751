import Foundation
import ImageTasks
import TasksCommon

/// `--format npy`: rows of equal width as one NumPy `.npy` array (format version 1.0), shape
/// [N, D], `<f4` (little-endian float32) or `|i1` (int8), C order, as `numpy.load` reads it.
struct NumPyMatrix {
    /// The rows, in input order.
    private(set) var rows: [TensorValues] = []

    /// Adds a row.
    /// - Throws: `TasksError` invalidArgument when its width or type differs from the first row's.
    mutating func append(_ row: TensorValues, image: String) throws(TasksError) {
        if let first = rows.first {
            guard first.count == row.count, first.isQuantized == row.isQuantized else {
                throw .invalidArgument(
                    "The embedding has \(row.count) values, but the first image's had \(first.count): "
                        + "an .npy array needs rows of one width and type.", subject: .file(image))
            }
        }
        rows.append(row)
    }

    /// The `.npy` file: the magic string, the version, the header's length, the header (a Python
    /// dict literal padded with spaces to a multiple of 64 bytes, ending in a newline), the data.
    var data: Data {
        let width = rows.first?.count ?? 0
        let descr = rows.first?.isQuantized == true ? "|i1" : "<f4"
        var header = "{'descr': '\(descr)', 'fortran_order': False, 'shape': (\(rows.count), \(width)), }"
        let unpadded = 10 + header.utf8.count + 1
        header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
        var data = Data([0x93] + Array("NUMPY".utf8) + [1, 0])
        let length = UInt16(header.utf8.count)
        data.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8)])
        data.append(contentsOf: header.utf8)
        for row in rows {
            switch row {
            case .float32(let values):
                for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
            case .int8(let values):
                data.append(contentsOf: values.map { UInt8(bitPattern: $0) })
            }
        }
        return data
    }
}

extension TensorValues {
    /// Whether the values are int8.
    var isQuantized: Bool {
        if case .int8 = self { return true }
        return false
    }
}
