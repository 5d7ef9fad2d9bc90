#ifndef OBSERVATORY_C_REFERENCE_H
#define OBSERVATORY_C_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// An observer as C would store it: a function pointer and its context, side by side.
typedef struct {
  void (*function)(void *context, int64_t value);
  void *context;
} observatory_observer;

/// The physical limit of notification: calls every observer of a contiguous array with `value`.
void observatory_notify_all(const observatory_observer *observers, size_t count, int64_t value);

/// A minimal observer: adds `value` to the int64_t its context points to.
void observatory_accumulate(void *context, int64_t value);

/// The context a subscription allocates, of the size of a Swift closure's context that captures
/// one reference (a 16-byte object header, then the reference): the one allocation a Swift
/// observer cannot avoid, made by the limit rows too.
typedef struct {
  void *header[2];
  int64_t *target;
} observatory_context;

/// A minimal observer whose context is an `observatory_context`: adds `value` to its target.
void observatory_accumulate_through(void *context, int64_t value);

/// The least a subscription table does: a dense array of observers (so that a write walks
/// contiguous memory), a handle per subscription that finds its slot in O(1) whatever was
/// cancelled before, and the handles of cancelled subscriptions kept for reuse. Its arrays are
/// allocated once, for `capacity` observers, as a Swift array whose capacity was reserved.
typedef struct {
  /// The live observers, densely: `observers[0 ..< count]`.
  observatory_observer *observers;
  /// The handle of each live observer, by slot.
  uint32_t *handle_of_slot;
  /// The slot of each handle handed out and not cancelled.
  uint32_t *slot_of_handle;
  /// Cancelled handles, to hand out again (a stack).
  uint32_t *free_handles;
  size_t count;
  size_t free_count;
  size_t next_handle;
  size_t capacity;
} observatory_slot_map;

/// Allocates a map's arrays for `capacity` observers; false when memory ran out.
bool observatory_slot_map_init(observatory_slot_map *map, size_t capacity);

/// Frees the contexts of the live observers and the map's arrays.
void observatory_slot_map_destroy(observatory_slot_map *map);

/// Subscribes `count` observers, each calling `function` with a context it allocates
/// (`observatory_context`, its target `target`), writing their handles to `handles`.
/// Returns how many it subscribed: fewer than `count` when the map was full or memory ran out.
/// O(1) per subscription.
size_t observatory_slot_map_subscribe(
    observatory_slot_map *map, size_t count, void (*function)(void *context, int64_t value),
    int64_t *target, uint32_t *handles);

/// Cancels the subscriptions `handles[order[0]]`, `handles[order[1]]`, … `count` of them:
/// finds each one's slot, frees its context, and moves the last observer into the slot so that
/// the array stays dense. O(1) per cancellation.
void observatory_slot_map_cancel(
    observatory_slot_map *map, const uint32_t *handles, const uint32_t *order, size_t count);

/// Calls every live observer of the map with `value`.
void observatory_slot_map_notify(const observatory_slot_map *map, int64_t value);

#endif
