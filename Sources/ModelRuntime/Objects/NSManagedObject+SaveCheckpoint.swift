#if !canImport(CoreData)
import ModelQuery

extension NSManagedObject {
    // MARK: Save checkpoints

    /// Everything of the object a save that fails after resolving conflicts puts back (see
    /// ``SaveCheckpoint``): its state object itself, with a copy of its fields and values, so the
    /// object gets back the very state it had (its ``valuesMark`` as before, so the changes the
    /// context last reported stay reported), and its fault state, flags and place in a fetch.
    struct SavedState {
        fileprivate enum Kind {
            case bare
            case hollow(FetchBatches)
            case state(ObjectState, ObjectState.Fields, ContiguousArray<Any?>)
        }

        fileprivate let kind: Kind
        fileprivate let faultState: FaultState
        fileprivate let flags: UInt8
        fileprivate let batchPosition: Int32
    }

    var savedState: SavedState {
        let kind: SavedState.Kind
        switch body {
        case .bare: kind = .bare
        case .hollow(let batches): kind = .hollow(batches)
        case .state(let held):
            let state = held.takeUnretainedValue()
            kind = .state(state, state.fields.pointee, state.cells.boxedValues())
        }
        return SavedState(kind: kind, faultState: faultState, flags: flags, batchPosition: batchPosition)
    }

    /// Puts back what ``savedState`` saved. The registry is the caller's to mend.
    func restore(_ saved: SavedState) {
        switch saved.kind {
        case .bare:
            replaceBody(with: .bare)
        case .hollow(let batches):
            replaceBody(with: .hollow(batches))
        case .state(let state, let fields, let values):
            state.fields.pointee = fields
            let cells = state.cells
            for slot in 0..<min(fields.count, values.count) { cells.assign(values[slot], at: slot) }
            var current: ObjectState?
            if case .state(let held) = body { current = held.takeUnretainedValue() }
            if current !== state { replaceBody(with: .state(Unmanaged.passRetained(state))) }
        }
        faultState = saved.faultState
        flags = saved.flags
        batchPosition = saved.batchPosition
    }
}
#endif
