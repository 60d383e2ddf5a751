import Foundation
import Synchronization

/// How many views' features a run read from the cache and how many it computed (`train`'s
/// summary says so, so that a user sees why a second run is fast or not: the cache is keyed by
/// the photo's content, so a photo changed under the same name and time is computed again).
package final class FeatureCounts: Sendable {
    private let counts = Mutex((cached: 0, computed: 0))

    package init() {}

    /// Counts one view, read from the cache or computed.
    func add(cached: Bool) {
        counts.withLock { cached ? ($0.cached += 1) : ($0.computed += 1) }
    }

    /// The views read from the cache and those computed so far.
    package var values: (cached: Int, computed: Int) { counts.withLock { $0 } }
}
