package secrets

import "testing"

func TestSystemCredentialFiles(t *testing.T) {
	cases := []struct {
		path string
		want bool
	}{
		{"/etc/shadow", true},
		{"/etc/shadow-", true},
		{"/etc/shadow.bak", true},
		{"/etc/gshadow", true},
		{"/etc/sudoers", true},
		{"/etc/sudoers.d/90-cloud-init-users", true},
		{"/etc/master.passwd", true},
		{"/private/etc/master.passwd", true},
		{"/etc/security/opasswd", true},
		{"/etc/../etc/shadow", true},
		// neighbours
		{"/etc/passwd", false},
		{"/etc/group", false},
		{"/etc/shadowsocks.json", false},
		{"/etc/security/limits.conf", false},
		{"/home/tester/proj/etc/shadow", false},
	}
	for _, tc := range cases {
		if _, got := Check(tc.path, testEnv); got != tc.want {
			t.Errorf("Check(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

func TestCheckGlob(t *testing.T) {
	cases := []struct {
		pattern string
		want    bool
	}{
		{".env*", true},
		{".e*", true},
		{".*", true},
		{".*rc", true}, // .npmrc
		{"id_*", true},
		{"*_rsa", true},
		{"*.pem", true},
		{"*.k[e]y", true},
		{"cred*", true},
		{"secret*", true},
		{"~/.ssh/id_*", true},
		{"~/.aws/*", true},
		{"~/.s*/config", true},
		{"~/.s?h", true},
		{"/etc/s*", true},
		{"/etc/sudoers.d/*", true},
		{"~/.config/*/hosts.yml", true},
		{"config/.env*", true},
		// neighbours: generic patterns, names that cannot be secrets
		{"*", false},
		{"*.go", false},
		{"*.json", false},
		{"*.yml", false},
		{"s*", false},
		{"?env", false}, // a wildcard never matches the leading dot of .env
		{"*env*", true}, // but it matches secrets.env
		{".env.example*", false},
		{"/etc/*", false},
		{"/etc/*.conf", false},
		{"~/*/*", false},
		{"node_modules/pkg/*.pem", false},
		{"src/*.ts", false},
	}
	for _, tc := range cases {
		if _, got := CheckGlob(tc.pattern, testEnv); got != tc.want {
			t.Errorf("CheckGlob(%q) = %v, want %v", tc.pattern, got, tc.want)
		}
	}
}
