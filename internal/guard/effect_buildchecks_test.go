package guard

import "testing"

// TestChecksSwitchedOff: JVM builds with dependency verification or the
// vulnerability scan off, each with its harmless neighbour.
func TestChecksSwitchedOff(t *testing.T) {
	cases := []struct {
		cmd  string
		want Verdict
		rule string
	}{
		{"./gradlew build -Dorg.gradle.dependency.verification=off", Ask, "safety.disable"},
		{"./gradlew build --dependency-verification=lenient", Ask, "safety.disable"},
		{"./gradlew build --offline", Allow, ""},
		{"mvn verify -Ddependency-check.skip=true", Ask, "safety.disable"},
		{"mvn verify -DskipTests", Allow, ""},
	}
	for _, tc := range cases {
		got := check(t, DefaultPolicy(), tc.cmd)
		if got.Verdict != tc.want || tc.rule != "" && got.Rule != tc.rule {
			t.Errorf("%q = %s %s (%s), want %s %s", tc.cmd, got.Verdict, got.Rule, got.Evidence, tc.want, tc.rule)
		}
	}
}
