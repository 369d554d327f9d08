#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// `UndoManager` on Linux: Foundation's stacks, groups and names.
@MainActor
struct UndoManagerTests {
    @MainActor final class Counter {
        var value = 0
        func set(_ new: Int, in manager: UndoManager) {
            let old = value
            manager.registerUndo(withTarget: self) { $0.set(old, in: manager) }
            value = new
        }
    }

    @Test func undoAndRedoWalkTheStacks() {
        let manager = UndoManager()
        let counter = Counter()
        counter.set(1, in: manager)
        counter.set(2, in: manager)
        #expect(manager.canUndo && !manager.canRedo)
        manager.undo()
        #expect(counter.value == 1 && manager.canRedo)
        manager.undo()
        #expect(counter.value == 0 && !manager.canUndo)
        manager.redo()
        manager.redo()
        #expect(counter.value == 2 && !manager.canRedo)
    }

    @Test func aNewOperationClearsTheRedoStack() {
        let manager = UndoManager()
        let counter = Counter()
        counter.set(1, in: manager)
        manager.undo()
        #expect(manager.canRedo)
        counter.set(5, in: manager)
        #expect(!manager.canRedo)
    }

    @Test func groupsAndNestedGroupsUndoAsOne() {
        let manager = UndoManager()
        let counter = Counter()
        manager.beginUndoGrouping()
        counter.set(1, in: manager)
        manager.beginUndoGrouping()
        counter.set(2, in: manager)
        manager.endUndoGrouping()
        counter.set(3, in: manager)
        #expect(manager.groupingLevel == 1)
        manager.endUndoGrouping()
        manager.setActionName("Count")
        #expect(manager.undoActionName == "Count" && manager.undoMenuItemTitle == "Undo Count")
        manager.undo()
        #expect(counter.value == 0)
        #expect(manager.redoActionName == "Count" && manager.redoMenuItemTitle == "Redo Count")
        manager.redo()
        #expect(counter.value == 3)
        #expect(manager.undoMenuTitle(forUndoActionName: "") == "Undo")
    }

    @Test func undoClosesTheOpenTopLevelGroup() {
        let manager = UndoManager()
        let counter = Counter()
        manager.beginUndoGrouping()
        counter.set(1, in: manager)
        counter.set(2, in: manager)
        manager.undo()
        #expect(counter.value == 0 && manager.groupingLevel == 0)
    }

    @Test func levelsOfUndoKeepTheNewestGroups() {
        let manager = UndoManager()
        manager.levelsOfUndo = 2
        let counter = Counter()
        for value in 1...4 { counter.set(value, in: manager) }
        manager.undo()
        manager.undo()
        #expect(counter.value == 2 && !manager.canUndo)
    }

    @Test func disabledRegistrationRecordsNothing() {
        let manager = UndoManager()
        let counter = Counter()
        manager.disableUndoRegistration()
        #expect(!manager.isUndoRegistrationEnabled)
        counter.set(1, in: manager)
        manager.enableUndoRegistration()
        #expect(!manager.canUndo && counter.value == 1)
    }

    @Test func actionsOfATargetCanBeRemovedAndTargetsAreNotRetained() {
        let manager = UndoManager()
        let kept = Counter()
        var dropped: Counter? = Counter()
        kept.set(1, in: manager)
        dropped!.set(1, in: manager)
        weak let gone = dropped
        dropped = nil
        #expect(gone == nil)
        let other = Counter()
        other.set(7, in: manager)
        manager.removeAllActions(withTarget: other)
        manager.undo()  // the dropped counter's operation: nothing to run
        manager.undo()
        #expect(kept.value == 0 && other.value == 7 && !manager.canUndo)
        kept.set(3, in: manager)
        manager.removeAllActions()
        #expect(!manager.canUndo && !manager.canRedo)
    }

    @Test func undoPostsItsNotifications() {
        let manager = UndoManager()
        let counter = Counter()
        counter.set(1, in: manager)
        final class Names: @unchecked Sendable { var seen: [Notification.Name] = [] }
        let names = Names()
        let center = NotificationCenter.default
        let tokens = [UndoManager.willUndoChangeNotification, UndoManager.didUndoChangeNotification, .NSUndoManagerCheckpoint].map { name in
            center.addObserver(forName: name, object: manager, queue: nil) { names.seen.append($0.name) }
        }
        defer { tokens.forEach(center.removeObserver) }
        manager.undo()
        #expect(names.seen.contains(.NSUndoManagerCheckpoint))
        #expect(names.seen.filter { $0 != .NSUndoManagerCheckpoint } == [.NSUndoManagerWillUndoChange, .NSUndoManagerDidUndoChange])
    }
}
#endif
