// The seeded generator the tests share with the product (training's splits), from TasksCommon.
@_exported import struct TasksCommon.SplitMix64
