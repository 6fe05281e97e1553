package dev.rayscale.tune;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The keys of two readings of the same thing, to compare them key by key. */
final class Keys {

    private Keys() {
    }

    /** The keys of {@code now} in its order, then those only {@code before} has. */
    static <K> List<K> ofEither(Map<K, ?> now, Map<K, ?> before) {
        List<K> keys = new ArrayList<>(now.keySet());
        before.keySet().stream().filter(key -> !now.containsKey(key)).forEach(keys::add);
        return keys;
    }
}
