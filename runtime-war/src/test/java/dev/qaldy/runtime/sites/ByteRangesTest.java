package dev.qaldy.runtime.sites;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.runtime.sites.control.ByteRanges;
import dev.qaldy.runtime.sites.control.ByteRanges.Part;
import dev.qaldy.runtime.sites.control.ByteRanges.Unsatisfiable;
import dev.qaldy.runtime.sites.control.ByteRanges.Whole;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ByteRangesTest {

    /** Header | file size | expected: whole, none (416) or first-last. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
        "NULL|10|whole",
        "bytes=0-0|10|0-0",
        "bytes=0-9|10|0-9",
        "bytes=2-5|10|2-5",
        "bytes=5-|10|5-9",
        "bytes=5-99|10|5-9",
        "bytes=-3|10|7-9",
        "bytes=-30|10|0-9",
        "BYTES=1-2|10|1-2",
        "bytes = 1-2|10|whole",
        "bytes=9-|10|9-9",
        "bytes=10-|10|none",
        "bytes=10-20|10|none",
        "bytes=-0|10|none",
        "bytes=0-|0|none",
        "bytes=-5|0|none",
        "bytes=99999999999999999999-|10|none",
        "bytes=0-99999999999999999999|10|0-9",
        "bytes=5-2|10|whole",
        "bytes=0-1,3-4|10|whole",
        "bytes=-|10|whole",
        "bytes=a-b|10|whole",
        "bytes=1|10|whole",
        "items=0-1|10|whole",
        "bytes=+1-2|10|whole"
    })
    void one_range_of_bytes_or_the_whole_file(String header, long size, String expected) {
        ByteRanges.Range range = ByteRanges.of(header, size);
        switch (expected) {
            case "whole" -> assertThat(range).isInstanceOf(Whole.class);
            case "none" -> assertThat(range).isInstanceOf(Unsatisfiable.class);
            default -> {
                String[] bounds = expected.split("-");
                assertThat(range).isEqualTo(new Part(Long.parseLong(bounds[0]), Long.parseLong(bounds[1])));
            }
        }
    }
}
