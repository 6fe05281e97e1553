package dev.rayscale.audit;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Looks at bytes eight at a time (SIMD within a register): which bytes of a word equal a given byte. Scanning a
 * recording is mostly looking for a few bytes ({@code \n}, quotes, brackets) in long runs of others, and a word at a
 * time skips the runs in an eighth of the steps.
 */
final class ByteWords {

    static final int WIDTH = Long.BYTES;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long LOW_SEVEN = 0x7F7F7F7F7F7F7F7FL;
    private static final long ONES = 0x0101010101010101L;
    /** A byte no scan looks for, filling the word past the end of the bytes. */
    private static final long PADDING = 0x2020202020202020L;

    private ByteWords() {
    }

    /** The eight bytes at {@code from} (the first in the lowest bits), padded with spaces past {@code end}. */
    static long word(byte[] bytes, int from, int end) {
        if (from + WIDTH <= end) {
            return (long) LONGS.get(bytes, from);
        }
        long word = PADDING;
        for (int i = end - 1; i >= from; i--) {
            word = (word << 8) | (bytes[i] & 0xFF);  // the spaces shifted up stay above the bytes taken
        }
        return word;
    }

    /** The high bit of each byte of {@code word} that equals {@code value}, and no other bit. */
    static long equal(long word, byte value) {
        long differs = word ^ (ONES * (value & 0xFF));
        // A byte is zero exactly when neither its low seven bits (carried into the high bit) nor its high bit is set.
        return ~(((differs & LOW_SEVEN) + LOW_SEVEN) | differs | LOW_SEVEN);
    }

    /** The index, within its word, of the byte a mask bit (from {@link #equal}) marks. */
    static int index(long mask) {
        return Long.numberOfTrailingZeros(mask) >>> 3;
    }
}
