/// A fixed-size, zero-initialized float buffer with a stable address, owned by the engine.
///
/// The hot loops work on raw pointers: an `Array` would need `withUnsafe…` closures around
/// every call and could copy on write; this is allocated once per run and reused by every batch.
final class FloatBuffer {
    /// The first float; valid for `count` floats while the buffer lives.
    let pointer: UnsafeMutablePointer<Float>
    /// The number of floats.
    let count: Int

    /// `count` zeros.
    init(count: Int) {
        self.count = count
        pointer = .allocate(capacity: max(count, 1))
        pointer.initialize(repeating: 0, count: max(count, 1))
    }

    /// A copy of `values`.
    convenience init(copying values: [Float]) {
        self.init(count: values.count)
        values.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            pointer.update(from: base, count: values.count)
        }
    }

    deinit {
        pointer.deallocate()
    }

    /// The floats as an array (a copy).
    var array: [Float] { Array(UnsafeBufferPointer(start: pointer, count: count)) }

    /// Sets the first `count` floats to zero.
    func zero(_ count: Int? = nil) {
        pointer.update(repeating: 0, count: count ?? self.count)
    }

    /// Overwrites the floats with `values` (which has `count` floats).
    func load(_ values: [Float]) {
        precondition(values.count == count, "FloatBuffer.load: \(values.count) values for \(count)")
        values.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            pointer.update(from: base, count: count)
        }
    }
}
