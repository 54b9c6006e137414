package dev.qaldy.contract.apps;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AppLabelTest {

    @ParameterizedTest
    @ValueSource(strings = {"a", "0", "guestbook", "my-app", "a-b-c", "x1", "a--b",
            "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk"})
    void labels(String name) {
        assertThat(AppLabel.valid(name)).as(name).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-a", "a-", "-", "A", "My-app", "a.b", "a_b", "a b", "é", "a\u0000",
            "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"})
    void notLabels(String name) {
        assertThat(AppLabel.valid(name)).as(name).isFalse();
    }

    @Test
    void nullIsNoLabel() {
        assertThat(AppLabel.valid(null)).isFalse();
    }

    @Test
    void theLoopAgreesWithThePatternOnRandomNames() {
        Random random = new Random(15);
        String alphabet = "ab09-.A_ z";
        for (int n = 0; n < 20_000; n++) {
            StringBuilder name = new StringBuilder();
            int length = random.nextInt(70);
            for (int i = 0; i < length; i++) {
                name.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String s = name.toString();
            assertThat(AppLabel.valid(s)).as(s).isEqualTo(AppLabel.PATTERN.matcher(s).matches());
        }
    }
}
