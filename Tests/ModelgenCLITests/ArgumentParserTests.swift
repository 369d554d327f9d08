import Testing
@testable import ModelgenCLI
