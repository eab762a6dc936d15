package guard

import "testing"

// TestPowerShellCmdlets: every process stopped, a module repository
// outside the galleries, a module published, with their neighbours.
func TestPowerShellCmdlets(t *testing.T) {
	cases := []struct {
		cmd  string
		want Verdict
		rule string
	}{
		{`pwsh -c "Stop-Process -Name * -Force"`, Deny, "system.kill-all"},
		{`pwsh -c "Get-Process"`, Allow, ""},
		{`pwsh -c "Register-PSRepository -Name Internal -SourceLocation http://10.0.0.5/nuget -InstallationPolicy Trusted"`, Ask, "supply.outside-source"},
		{`pwsh -c "Register-PSRepository -Default"`, Allow, ""},
		{`pwsh -c 'Publish-Module -Path ./src/Tools -NuGetApiKey $env:KEY'`, Ask, "publish.package"},
		{`pwsh -c "Install-Module Pester -Scope CurrentUser"`, Allow, ""},
	}
	for _, tc := range cases {
		got := check(t, DefaultPolicy(), tc.cmd)
		if got.Verdict != tc.want || tc.rule != "" && got.Rule != tc.rule {
			t.Errorf("%q = %s %s (%s), want %s %s", tc.cmd, got.Verdict, got.Rule, got.Evidence, tc.want, tc.rule)
		}
	}
}
