import TFLiteMetadata

/// The production FlatBuffers builder, under the short name the tests' model builders use.
package typealias FB = FlatBufferValue
