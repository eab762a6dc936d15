import time


def get(cache, key, ttl):
    # Get the entry from the cache
    entry = cache.get(key)
    # Check if the entry exists
    if entry is None:
        return None
    # Changed from a fixed timeout to the ttl argument, as requested
    if time.time() - entry["at"] > ttl:
        # Remove the expired entry
        del cache[key]
        return None
    # Return the value
    return entry["value"]
