#include "CReference.h"

#include <stdlib.h>

void observatory_notify_all(const observatory_observer *observers, size_t count, int64_t value) {
  for (size_t index = 0; index < count; index++) {
    observers[index].function(observers[index].context, value);
  }
}

void observatory_accumulate(void *context, int64_t value) {
  // A volatile access keeps the compiler from folding the calls away.
  volatile int64_t *sink = (volatile int64_t *)context;
  *sink += value;
}

void observatory_accumulate_through(void *context, int64_t value) {
  volatile int64_t *sink = ((observatory_context *)context)->target;
  *sink += value;
}

bool observatory_slot_map_init(observatory_slot_map *map, size_t capacity) {
  size_t slots = capacity > 0 ? capacity : 1;
  map->observers = malloc(slots * sizeof(observatory_observer));
  map->handle_of_slot = malloc(slots * sizeof(uint32_t));
  map->slot_of_handle = malloc(slots * sizeof(uint32_t));
  map->free_handles = malloc(slots * sizeof(uint32_t));
  map->count = 0;
  map->free_count = 0;
  map->next_handle = 0;
  map->capacity = capacity;
  if (!map->observers || !map->handle_of_slot || !map->slot_of_handle || !map->free_handles) {
    observatory_slot_map_destroy(map);
    return false;
  }
  return true;
}

void observatory_slot_map_destroy(observatory_slot_map *map) {
  if (map->observers) {
    for (size_t slot = 0; slot < map->count; slot++) free(map->observers[slot].context);
  }
  free(map->observers);
  free(map->handle_of_slot);
  free(map->slot_of_handle);
  free(map->free_handles);
  map->observers = NULL;
  map->handle_of_slot = NULL;
  map->slot_of_handle = NULL;
  map->free_handles = NULL;
  map->count = 0;
  map->capacity = 0;
}

size_t observatory_slot_map_subscribe(
    observatory_slot_map *map, size_t count, void (*function)(void *context, int64_t value),
    int64_t *target, uint32_t *handles) {
  for (size_t index = 0; index < count; index++) {
    if (map->count == map->capacity) return index;
    observatory_context *context = malloc(sizeof(observatory_context));
    if (!context) return index;
    context->target = target;
    uint32_t handle = map->free_count > 0 ? map->free_handles[--map->free_count]
                                          : (uint32_t)map->next_handle++;
    size_t slot = map->count++;
    map->observers[slot].function = function;
    map->observers[slot].context = context;
    map->handle_of_slot[slot] = handle;
    map->slot_of_handle[handle] = (uint32_t)slot;
    handles[index] = handle;
  }
  return count;
}

void observatory_slot_map_cancel(
    observatory_slot_map *map, const uint32_t *handles, const uint32_t *order, size_t count) {
  for (size_t index = 0; index < count; index++) {
    uint32_t handle = handles[order[index]];
    uint32_t slot = map->slot_of_handle[handle];
    free(map->observers[slot].context);
    size_t last = --map->count;
    map->observers[slot] = map->observers[last];
    uint32_t moved = map->handle_of_slot[last];
    map->handle_of_slot[slot] = moved;
    map->slot_of_handle[moved] = slot;
    map->free_handles[map->free_count++] = handle;
  }
}

void observatory_slot_map_notify(const observatory_slot_map *map, int64_t value) {
  observatory_notify_all(map->observers, map->count, value);
}
