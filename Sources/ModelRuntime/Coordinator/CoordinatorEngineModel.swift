#if !canImport(CoreData)
import ModelQuery
import Synchronization

/// The engine model a coordinator reads and writes its stores with. It starts as the model's
/// own and is replaced once, when the first store added is an existing store laid out otherwise
/// than a new store (other entity numbers, join tables named by the other side); stores added
/// later must be laid out alike. Contexts hold this box (never weakly referenced, so retaining
/// it stays cheap) and read the current model with one atomic load. Every model it has held
/// stays alive with it, so an unretained reference read from it remains valid.
final class CoordinatorEngineModel: @unchecked Sendable {
    private let current: Atomic<UInt>
    /// Every engine model the box has held, guarded by ``lock`` (a pthread mutex, which the
    /// thread sanitizer understands).
    private var held: [EngineModel]
    private let lock = NSLock()

    init(_ model: EngineModel) {
        held = [model]
        current = Atomic(UInt(bitPattern: Unmanaged.passUnretained(model).toOpaque()))
    }

    /// The current engine model, unretained: valid as long as this box lives.
    var unmanaged: Unmanaged<EngineModel> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: current.load(ordering: .acquiring))!)
    }

    var model: EngineModel { unmanaged.takeUnretainedValue() }

    /// Makes `model` the current engine model.
    func replace(with model: EngineModel) {
        lock.withLock { held.append(model) }
        current.store(UInt(bitPattern: Unmanaged.passUnretained(model).toOpaque()), ordering: .releasing)
    }
}
#endif
