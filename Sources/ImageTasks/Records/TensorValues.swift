/// One image's row of a numeric output tensor.
package enum TensorValues: Sendable, Equatable {
    case float32([Float])
    case int8([Int8])

    /// The number of elements.
    package var count: Int {
        switch self {
        case .float32(let values): values.count
        case .int8(let values): values.count
        }
    }
}
