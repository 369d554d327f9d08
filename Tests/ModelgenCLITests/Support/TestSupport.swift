// The shared test helpers (`Fixtures`, `ScratchFolder`, `Swiftc`, `Golden`, …), visible in every
// file of this test target.
@_exported import TestSupport
