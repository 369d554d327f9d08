// swift-format-ignore-file: AlwaysUseLowerCamelCase

// Foundation's notification names are kept exactly.
#if !canImport(CoreData)
import Foundation

/// Foundation's `UndoManager`, which Linux's Foundation does not have: a stack of undo groups
/// and a stack of redo groups, with Apple's names, main-actor isolation (as in the current SDKs)
/// and notifications. A context with an undo manager records its changes in it (see
/// `NSManagedObjectContext.undoManager`).
///
/// Grouping follows Apple's rules with one difference: there is no run loop whose passes end
/// automatic groups, so with ``groupsByEvent`` (the default) an undo operation registered while
/// no group is open is a group of its own. A context registers the changes of one
/// `processPendingChanges()` (the end of a `perform` block, a save, an explicit call) as one
/// operation, so each is one undo step unless the caller groups them.
@MainActor
open class UndoManager: NSObject {
    /// One registered operation: its target, held weakly (Apple's holds it unretained), and what
    /// it runs on it.
    struct Action {
        weak var target: AnyObject?
        let run: (AnyObject) -> Void
    }

    /// A group of operations, undone together in the reverse of their order.
    struct Group {
        var actions: [Action] = []
        var name = ""
        var isDiscardable = false
    }

    // The state is read and written on the thread of the caller: the main actor for the public
    // API, a context's queue for the context's own registrations (`nonisolated` entry points),
    // as Core Data uses its undo manager from the context's queue.
    nonisolated(unsafe) private var undoStack: [Group] = []
    nonisolated(unsafe) private var redoStack: [Group] = []
    nonisolated(unsafe) private var openGroups: [Group] = []
    nonisolated(unsafe) private var disabled = 0
    nonisolated(unsafe) private var undoing = false
    nonisolated(unsafe) private var redoing = false
    nonisolated(unsafe) private var groupsAutomatically = true
    nonisolated(unsafe) private var levels = 0

    public override nonisolated init() {
        super.init()
    }

    // MARK: Groups

    /// Opens a group; groups nest, and a nested group's operations join the enclosing group
    /// when it closes.
    open func beginUndoGrouping() {
        if !undoing && !redoing { postCheckpoint() }
        openGroup()
        NotificationCenter.default.post(name: .NSUndoManagerDidOpenUndoGroup, object: self)
    }

    /// Closes the innermost group. Closing with no group open is a programming error.
    open func endUndoGrouping() {
        precondition(!openGroups.isEmpty, "endUndoGrouping called with no matching beginUndoGrouping")
        postCheckpoint()
        NotificationCenter.default.post(name: .NSUndoManagerWillCloseUndoGroup, object: self)
        closeGroup()
        NotificationCenter.default.post(name: .NSUndoManagerDidCloseUndoGroup, object: self)
    }

    /// The number of open groups.
    open var groupingLevel: Int { openGroups.count }

    /// Whether an operation registered while no group is open gets a group of its own (true, the
    /// default) or is a programming error (false: open groups explicitly).
    open var groupsByEvent: Bool {
        get { groupsAutomatically }
        set { groupsAutomatically = newValue }
    }

    /// The most top-level groups kept on the undo stack; 0 (the default) keeps all.
    open var levelsOfUndo: Int {
        get { levels }
        set {
            levels = max(0, newValue)
            trimUndoStack()
        }
    }

    // MARK: Registration

    open func disableUndoRegistration() { disabled += 1 }

    /// Re-enables registration after ``disableUndoRegistration()``; calls must balance.
    open func enableUndoRegistration() {
        precondition(disabled > 0, "enableUndoRegistration called without a matching disableUndoRegistration")
        disabled -= 1
    }

    open var isUndoRegistrationEnabled: Bool { disabled == 0 }

    /// Registers `handler` as an undo operation on `target`, which is held weakly: an operation
    /// whose target is gone does nothing. While undoing, operations go to the redo stack; a new
    /// operation outside undo and redo clears the redo stack.
    public func registerUndo<TargetType: AnyObject>(withTarget target: TargetType, handler: @escaping @MainActor (TargetType) -> Void) {
        register(target: target) { object in
            MainActor.assumeIsolated { handler(object as! TargetType) }
        }
    }

    // MARK: Undo and redo

    open var canUndo: Bool { !undoStack.isEmpty || openGroups.first.map { !$0.actions.isEmpty } == true }
    open var canRedo: Bool { !redoStack.isEmpty }
    open var isUndoing: Bool { undoing }
    open var isRedoing: Bool { redoing }

    /// Undoes the last group: closes the open automatic group first (``groupsByEvent``);
    /// undoing with a nested group open is a programming error.
    open func undo() { undoLast() }

    /// Undoes the last group on the stack without closing an open one.
    open func undoNestedGroup() { undoTopGroup() }

    /// Redoes the last undone group.
    open func redo() { redoLast() }

    /// Clears both stacks and re-enables registration.
    open func removeAllActions() { removeEveryAction() }

    /// Removes every operation whose target is `target`.
    open func removeAllActions(withTarget target: Any) {
        removeActions(of: target as AnyObject)
    }

    // MARK: Action names

    /// Names the current group: the open one, else the last undone (while undoing) or the last
    /// registered.
    open func setActionName(_ actionName: String) {
        if !openGroups.isEmpty {
            openGroups[0].name = actionName
        } else if undoing, !redoStack.isEmpty {
            redoStack[redoStack.count - 1].name = actionName
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].name = actionName
        }
    }

    open func setActionIsDiscardable(_ discardable: Bool) {
        if !openGroups.isEmpty {
            openGroups[0].isDiscardable = discardable
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].isDiscardable = discardable
        }
    }

    open var undoActionName: String { undoStack.last?.name ?? "" }
    open var redoActionName: String { redoStack.last?.name ?? "" }
    open var undoActionIsDiscardable: Bool { undoStack.last?.isDiscardable ?? false }
    open var redoActionIsDiscardable: Bool { redoStack.last?.isDiscardable ?? false }
    open var undoMenuItemTitle: String { undoMenuTitle(forUndoActionName: undoActionName) }
    open var redoMenuItemTitle: String { redoMenuTitle(forUndoActionName: redoActionName) }
    open func undoMenuTitle(forUndoActionName actionName: String) -> String { actionName.isEmpty ? "Undo" : "Undo \(actionName)" }
    open func redoMenuTitle(forUndoActionName actionName: String) -> String { actionName.isEmpty ? "Redo" : "Redo \(actionName)" }

    // MARK: Notifications (Apple's names)

    nonisolated public static let checkpointNotification = Notification.Name.NSUndoManagerCheckpoint
    nonisolated public static let willUndoChangeNotification = Notification.Name.NSUndoManagerWillUndoChange
    nonisolated public static let willRedoChangeNotification = Notification.Name.NSUndoManagerWillRedoChange
    nonisolated public static let didUndoChangeNotification = Notification.Name.NSUndoManagerDidUndoChange
    nonisolated public static let didRedoChangeNotification = Notification.Name.NSUndoManagerDidRedoChange
    nonisolated public static let didOpenUndoGroupNotification = Notification.Name.NSUndoManagerDidOpenUndoGroup
    nonisolated public static let willCloseUndoGroupNotification = Notification.Name.NSUndoManagerWillCloseUndoGroup
    nonisolated public static let didCloseUndoGroupNotification = Notification.Name.NSUndoManagerDidCloseUndoGroup
}

// MARK: - The machinery, usable from a context's queue

extension UndoManager {
    /// Adds an operation to the open group (a group of its own when none is open).
    nonisolated func register(target: AnyObject, run: @escaping (AnyObject) -> Void) {
        guard disabled == 0 else { return }
        let automatic = openGroups.isEmpty
        if automatic {
            precondition(groupsAutomatically, "registering an undo operation needs an open group when groupsByEvent is false")
            openGroup()
        }
        if !undoing && !redoing { redoStack.removeAll() }
        openGroups[openGroups.count - 1].actions.append(Action(target: target, run: run))
        if automatic { closeGroup() }
    }

    /// ``removeAllActions()`` from a context's queue (`rollback()`).
    nonisolated func removeEveryAction() {
        undoStack.removeAll()
        redoStack.removeAll()
        for index in openGroups.indices { openGroups[index].actions.removeAll() }
        disabled = 0
    }

    /// Whether operations are registered now (a context skips recording when not).
    nonisolated var registersOperations: Bool { disabled == 0 }

    nonisolated func openGroup() {
        openGroups.append(Group())
    }

    /// Closes the innermost group: into the enclosing one, else onto the redo stack while
    /// undoing and the undo stack otherwise (an empty group is dropped).
    nonisolated func closeGroup() {
        let group = openGroups.removeLast()
        if !openGroups.isEmpty {
            openGroups[openGroups.count - 1].actions += group.actions
            if openGroups[openGroups.count - 1].name.isEmpty { openGroups[openGroups.count - 1].name = group.name }
            return
        }
        guard !group.actions.isEmpty else { return }
        if undoing {
            redoStack.append(group)
        } else {
            undoStack.append(group)
            trimUndoStack()
        }
    }

    nonisolated func undoLast() {
        if groupsAutomatically, openGroups.count == 1 {
            postCheckpoint()
            closeGroup()
        }
        precondition(openGroups.isEmpty, "undo called with a nested undo group open")
        undoTopGroup()
    }

    nonisolated func undoTopGroup() {
        postCheckpoint()
        guard let group = undoStack.popLast() else { return }
        NotificationCenter.default.post(name: .NSUndoManagerWillUndoChange, object: self)
        undoing = true
        replay(group)
        undoing = false
        NotificationCenter.default.post(name: .NSUndoManagerDidUndoChange, object: self)
    }

    nonisolated func redoLast() {
        precondition(openGroups.isEmpty, "redo called with an undo group open")
        postCheckpoint()
        guard let group = redoStack.popLast() else { return }
        NotificationCenter.default.post(name: .NSUndoManagerWillRedoChange, object: self)
        redoing = true
        replay(group)
        redoing = false
        NotificationCenter.default.post(name: .NSUndoManagerDidRedoChange, object: self)
    }

    /// Runs `group`'s operations in reverse order inside a new group of the same name, which
    /// collects what they register (the redo group while undoing, the undo group while redoing).
    private nonisolated func replay(_ group: Group) {
        openGroup()
        for action in group.actions.reversed() {
            if let target = action.target { action.run(target) }
        }
        if !openGroups.isEmpty { openGroups[openGroups.count - 1].name = group.name }
        closeGroup()
    }

    nonisolated func removeActions(of target: AnyObject) {
        func keep(_ action: Action) -> Bool { action.target.map { $0 !== target } ?? false }
        func kept(_ stack: [Group]) -> [Group] {
            stack.compactMap { group in
                var group = group
                group.actions = group.actions.filter(keep)
                return group.actions.isEmpty ? nil : group
            }
        }
        undoStack = kept(undoStack)
        redoStack = kept(redoStack)
        for index in openGroups.indices { openGroups[index].actions = openGroups[index].actions.filter(keep) }
    }

    private nonisolated func trimUndoStack() {
        if levels > 0, undoStack.count > levels { undoStack.removeFirst(undoStack.count - levels) }
    }

    /// Posts `NSUndoManagerCheckpoint`: contexts using the manager process their pending
    /// changes, so an undo includes them.
    nonisolated func postCheckpoint() {
        NotificationCenter.default.post(name: .NSUndoManagerCheckpoint, object: self)
    }
}

extension Notification.Name {
    nonisolated public static let NSUndoManagerCheckpoint = Notification.Name("NSUndoManagerCheckpointNotification")
    nonisolated public static let NSUndoManagerWillUndoChange = Notification.Name("NSUndoManagerWillUndoChangeNotification")
    nonisolated public static let NSUndoManagerWillRedoChange = Notification.Name("NSUndoManagerWillRedoChangeNotification")
    nonisolated public static let NSUndoManagerDidUndoChange = Notification.Name("NSUndoManagerDidUndoChangeNotification")
    nonisolated public static let NSUndoManagerDidRedoChange = Notification.Name("NSUndoManagerDidRedoChangeNotification")
    nonisolated public static let NSUndoManagerDidOpenUndoGroup = Notification.Name("NSUndoManagerDidOpenUndoGroupNotification")
    nonisolated public static let NSUndoManagerWillCloseUndoGroup = Notification.Name("NSUndoManagerWillCloseUndoGroupNotification")
    nonisolated public static let NSUndoManagerDidCloseUndoGroup = Notification.Name("NSUndoManagerDidCloseUndoGroupNotification")
}
#endif
