/// A weighted mean μ = Σᵢ wᵢ xᵢ / Σᵢ wᵢ and covariance C = Σᵢ wᵢ (xᵢ − μ)(xᵢ − μ)ᵀ / Σᵢ wᵢ of a
/// training set's features, in double: what the fit's `Preconditioner` is made of. With every
/// wᵢ equal (`TrainingSet.moments`, computed once per training set and shared by the fits of
/// every penalty) they are the features' mean and covariance; the fit weighs each row by its
/// curvature at the current point when it refreshes its preconditioner.
struct FeatureMoments: Sendable {
    /// μ, D values.
    let mean: [Double]
    /// C, D × D, row-major, both triangles.
    let covariance: [Double]
    /// Σᵢ wᵢ / N, the mean weight (1 for equal weights).
    let meanWeight: Double

    /// The largest D whose moments are computed: C holds D² doubles (32 MB at 2,048), and each
    /// fit factors it in about D³/3 multiply-adds (an extractor's 1,024 or 1,280 features: 0.4 and
    /// 0.7 G multiply-adds, against the 60 M of each evaluation of 3,000 photos of 10 classes).
    static let largestFeatureCount = 2_048

    /// The moments of `rows`, each weighing `weights[i]` ≥ 0 (equally without weights), not all
    /// 0. Read in blocks of `FeatureRows.blockRows`: C = Σ wᵢ xᵢ xᵢᵀ / Σ wᵢ − μ μᵀ, the sum by
    /// `cblas_dsyrk` over the rows scaled by √wᵢ.
    init(_ rows: FeatureRows, weights: [Double]? = nil) {
        let (n, d) = (rows.rows, rows.columns)
        var sums = [Double](repeating: 0, count: d)
        var products = [Double](repeating: 0, count: d * d)
        var scratch: [Double] = []
        var scaled: [Double] = weights == nil ? [] : [Double](repeating: 0, count: min(n, FeatureRows.blockRows) * d)
        var totalWeight = 0.0
        for start in stride(from: 0, to: n, by: FeatureRows.blockRows) {
            let block = start..<min(start + FeatureRows.blockRows, n)
            rows.withDoubles(block, scratch: &scratch) { features in
                scaled.withUnsafeMutableBufferPointer { scaled in
                    var gramRows = features
                    for row in 0..<block.count {
                        let weight = weights?[block.lowerBound + row] ?? 1
                        totalWeight += weight
                        let root = weight.squareRoot()
                        for column in 0..<d {
                            let value = features[row * d + column]
                            sums[column] += weight * value
                            if weights != nil { scaled[row * d + column] = root * value }
                        }
                    }
                    if weights != nil { gramRows = UnsafePointer(scaled.baseAddress!) }
                    products.withUnsafeMutableBufferPointer {
                        BLAS.addGram(gramRows, rows: block.count, columns: d, into: $0.baseAddress!)
                    }
                }
            }
        }
        let mean = sums.map { $0 / totalWeight }
        // dsyrk filled the upper triangle; both get Σ wᵢ xᵢ xᵢᵀ / Σ wᵢ − μ μᵀ.
        for i in 0..<d {
            for j in i..<d {
                let value = products[i * d + j] / totalWeight - mean[i] * mean[j]
                products[i * d + j] = value
                products[j * d + i] = value
            }
        }
        self.mean = mean
        covariance = products
        meanWeight = totalWeight / Double(n)
    }
}
