/// The metadata of one subgraph: one `TensorMetadata` per input and per output tensor,
/// in the order of `SubGraph.inputs` / `SubGraph.outputs` of the model.
///
/// Mirrors `tflite::SubGraphMetadata` (metadata schema); other fields are ignored.
package struct SubGraphMetadata: Equatable, Sendable {
    /// `input_tensor_metadata`; empty when absent.
    package var inputTensors: [TensorMetadata]
    /// `output_tensor_metadata`; empty when absent. Output *i* is classification head *i*.
    package var outputTensors: [TensorMetadata]

    /// Creates subgraph metadata from its parts.
    package init(inputTensors: [TensorMetadata] = [], outputTensors: [TensorMetadata] = []) {
        self.inputTensors = inputTensors
        self.outputTensors = outputTensors
    }

    /// Decodes a `SubGraphMetadata` table.
    init(table: FlatBufferTable) throws {
        self.init(
            inputTensors: try table.tables(Schema.SubGraphMetadata.inputTensorMetadata, "input_tensor_metadata").map(
                TensorMetadata.init(table:)),
            outputTensors: try table.tables(Schema.SubGraphMetadata.outputTensorMetadata, "output_tensor_metadata").map(
                TensorMetadata.init(table:)))
    }
}
