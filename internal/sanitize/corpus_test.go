package sanitize

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// secretCorpus: each input holds a secret that must not survive String,
// and a part that must (what makes the log line readable: the program,
// the option or key, the host).
var secretCorpus = []struct{ in, secret, keep string }{
	// passwords after options, by program
	{"sshpass -p hunter2 ssh deploy@host", "hunter2", "sshpass -p"},
	{"sshpass -p'hunter 2' scp f host:", "hunter 2", "scp f host:"},
	{"sshpass -phunter2 ssh -p 2222 host", "hunter2", "ssh -p 2222 host"},
	{"mysql -u root -phunter2 app", "hunter2", "-u root -p"},
	{"mariadb-dump -u r -p\"s3cr et\" db > d.sql", "s3cr et", "> d.sql"},
	{"redis-cli -h cache -a Sup3rSecret ping", "Sup3rSecret", "redis-cli -h cache -a"},
	{"mongosh --host db -u admin -p Mong0Pass", "Mong0Pass", "-u admin -p"},
	{"sqlcmd -S db -U sa -P 'Y0urStr0ng!Pass'", "Y0urStr0ng!Pass", "sqlcmd -S db -U sa -P"},
	{"zip -P zipSecret9 out.zip file", "zipSecret9", "out.zip file"},
	{"7z x -pArchivePass1 a.7z", "ArchivePass1", "7z x -p"},
	{"ldapsearch -x -D cn=admin -w LdapPw42 -b dc=x", "LdapPw42", "-b dc=x"},
	{"smbclient //srv/share -U alice%SmbPass7", "SmbPass7", "-U alice%"},
	{"docker login -u bob -p D0ckerPw registry.io", "D0ckerPw", "registry.io"},
	{"podman login --password Podm4nPw quay.io", "Podm4nPw", "quay.io"},
	{"htpasswd -b .htpasswd alice Htpw123", "Htpw123", "htpasswd -b .htpasswd alice"},
	{"psql --password=PsqlPw1 -h db", "PsqlPw1", "-h db"},
	{"keytool -list -keystore ks.jks -storepass St0rePass", "St0rePass", "-keystore ks.jks"},
	{"openssl pkcs12 -in a.p12 -passin pass:P12secret", "P12secret", "-passin pass:"},
	{"wget --user=bob --http-password=WgetPw9 https://x/f", "WgetPw9", "--user=bob"},
	{"gh --token=abc123xyz api /user", "abc123xyz", "api /user"},
	{"vault login -method=userpass username=bob password=VaultPw", "VaultPw", "username=bob"},
	// user:password credentials
	{"curl -u admin:CurlPass1 https://api.example.com", "CurlPass1", "-u admin:"},
	{"curl -sS --user 'admin:curl pass' https://x", "curl pass", "https://x"},
	{"curl -uadmin:Attached9 https://x", "Attached9", "https://x"},
	{"http -a bob:HttpiePw https://api", "HttpiePw", "-a bob:"},
	{"git clone https://oauth2:GitlabTok3n@gitlab.com/o/r.git", "GitlabTok3n", "gitlab.com/o/r.git"},
	{"redis-cli -u redis://:RedisUrlPw@cache:6379", "RedisUrlPw", "@cache:6379"},
	{"git push https://0123456789abcdef0123456789abcdef01234567@github.com/o/r", "0123456789abcdef0123456789abcdef01234567", "github.com/o/r"},
	// headers
	{`curl -H "Authorization: Bearer abc.def-123" https://api`, "abc.def-123", "Authorization: Bearer"},
	{"curl -H 'Authorization: token ghx1234567' x", "ghx1234567", "Authorization: token"},
	{`curl -H "X-Api-Key: k3yValue99" https://api`, "k3yValue99", "X-Api-Key:"},
	{`curl -H "PRIVATE-TOKEN: glpt0ken" https://gitlab`, "glpt0ken", "PRIVATE-TOKEN:"},
	{`curl -H 'Cookie: session=C00kieVal; theme=dark' https://x`, "C00kieVal", "https://x"},
	// assignments and config keys
	{"PGPASSWORD=PgPw55 psql -h db", "PgPw55", "psql -h db"},
	{"export STRIPE_KEY=plainkey123", "plainkey123", "export STRIPE_KEY="},
	{"MYSQL_PWD=MyPwd9 mysql", "MyPwd9", "mysql"},
	{"SSHPASS=EnvPass1 sshpass -e ssh host", "EnvPass1", "sshpass -e"},
	{"export SLACK_BOT_TOKEN=anything-goes-here", "anything-goes-here", "SLACK_BOT_TOKEN="},
	{"DJANGO_SECRET=dj4ngo ./manage.py runserver", "dj4ngo", "runserver"},
	{"aws configure set aws_secret_access_key wJalrXUtnFEMIK7MDENGbPxRfiCY", "wJalrXUtnFEMIK7MDENGbPxRfiCY", "aws configure set aws_secret_access_key"},
	{"aws configure set aws_session_token FwoGZXIvYXdz", "FwoGZXIvYXdz", "aws_session_token"},
	{"npm config set //registry.npmjs.org/:_authToken NpmTok3n", "NpmTok3n", "npm config set //registry.npmjs.org/:_authToken"},
	{"echo //registry.npmjs.org/:_authToken=NpmTok3n2 >> .npmrc", "NpmTok3n2", ">> .npmrc"},
	{"npm config set _auth dXNlcjpwYXNz", "dXNlcjpwYXNz", "npm config set _auth"},
	{"git config --global github.token Gh0ldToken", "Gh0ldToken", "git config --global github.token"},
	{"yarn config set npmAuthToken YarnTok", "YarnTok", "npmAuthToken"},
	{`{"password": "hunter2", "user": "bob"}`, "hunter2", `"user": "bob"`},
	{"db:\n  password: yamlPw", "yamlPw", "db:"},
	{"mount -t cifs -o username=u,password=MountPw //s/x /mnt", "MountPw", "//s/x /mnt"},
	{"kubectl create secret generic db --from-literal=pw=K8sLiteral", "K8sLiteral", "kubectl create secret generic db"},
	{"gh secret set API_TOKEN --body GhBodySecret", "GhBodySecret", "gh secret set API_TOKEN"},
	{"heroku config:set DATABASE_URL=HerokuDbSecret", "HerokuDbSecret", "heroku config:set"},
	{"curl 'https://api.x.com/v1?access_token=QueryTok&limit=1'", "QueryTok", "limit=1"},
	{"https://bucket.s3.amazonaws.com/o?X-Amz-Signature=SigValue123&X-Amz-Date=1", "SigValue123", "X-Amz-Date=1"},
	// webhooks: the host stays, the path goes
	{"curl -X POST https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "T00000000/B00000000", "https://hooks.slack.com/services/"},
	{"curl https://discord.com/api/webhooks/123456789012345678/AbCdEf-GhIjKl_MnOp", "AbCdEf-GhIjKl_MnOp", "https://discord.com/api/webhooks/"},
	{"curl https://outlook.webhook.office.com/webhookb2/abc-123@def/IncomingWebhook/xyz", "IncomingWebhook/xyz", "webhook.office.com/webhookb2/"},
	{"curl https://api.telegram.org/bot123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage", "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "https://api.telegram.org/bot"},
	{"curl https://ci.example.com/webhooks/a8Kd93jfLw02mZpQ7xRt5uVb", "a8Kd93jfLw02mZpQ7xRt5uVb", "https://ci.example.com/webhooks/"},
	// vendor formats
	{"export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "IOSFODNN7EXAMPLE", "AKIA"},
	{"git clone https://x/y ghp_abcdefghijklmnopqrstuvwxyz0123456789", "abcdefghijklmnopqrstuvwxyz0123456789", "ghp_"},
	{"GH_TOKEN github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "0123456789_abcdefghijklmnopqrstuvwxyz", "github_pat_"},
	{"maps?key=AIzaSyA1234567890abcdefghijklmnopqrstu", "SyA1234567890abcdefghijklmnopqrstu", "AIza"},
	{"twine upload -p pypi-AgEIcHlwaS5vcmcCJGE4ZjY5ZmQ0LTk0YzMtNDZkNi1iNzc0", "AgEIcHlwaS5vcmcCJGE4ZjY5ZmQ0LTk0YzMtNDZkNi1iNzc0", "pypi-"},
	{"doctl auth init -t dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef", "dop_v1_"},
	{"glpat-abcdefghij0123456789", "abcdefghij0123456789", "glpat-"},
	{"xoxb-123456789012-abcdefghijkl", "123456789012-abcdefghijkl", "xoxb-"},
	{"ANTHROPIC sk-ant-api03-abcdefghijklmnopqrstuvwx", "abcdefghijklmnopqrstuvwx", "sk-ant-"},
	{"stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc", "sk_live_"},
	{"npm_abcdefghijklmnopqrstuvwxyz0123456789", "abcdefghijklmnopqrstuvwxyz0123456789", "npm_"},
	{"hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "abcdefghijklmnopqrstuvwxyzABCDEFGH", "hf_"},
	{"SG.abcdefghijklmnop.qrstuvwxyzABCDEFGH", "qrstuvwxyzABCDEFGH", "SG."},
	{"vault token hvs.CAESIJlU9JMYEhOPYv4igdhm9PnZDrabYTobQ4Ymnlq1qY", "CAESIJlU9JMYEhOPYv4igdhm9PnZDrabYTobQ4Ymnlq1qY", "hvs."},
	{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", "eyJ"},
	{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXk", "-----BEGIN OPENSSH PRIVATE KEY-----"},
	// bare long hex and base64
	{"datadog 0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef", "datadog "},
	{"mailgun key-3ab6f0bd29cd6fd54ac373e8ba1e0cf0", "3ab6f0bd29cd6fd54ac373e8ba1e0cf0", "mailgun key-"},
	{"deploy --with 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08ff", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08ff", "deploy --with"},
	{"aws s3 ls --creds k3Vd9/Qx7LmZp2Rt8Wn4Yb6Hc1Jf5Gs0Ae+Tu9Ko", "k3Vd9/Qx7LmZp2Rt8Wn4Yb6Hc1Jf5Gs0Ae+Tu9Ko", "aws s3 ls --creds"},
	{"echo Zm9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1u | base64 -d", "Zm9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1u", "| base64 -d"},
}

// harmlessCorpus must come out of String unchanged.
var harmlessCorpus = []string{
	"git show 3f2a9c1e4b5d6e7f8091a2b3c4d5e6f708192a3b --stat",
	"git log 3f2a9c1e4b5d6e7f8091a2b3c4d5e6f708192a3b..9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
	"trace head sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
	"sha256sum: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  go.sum",
	"sha512:cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
	"docker pull alpine@sha256:c5b1261d6d3e43071626931fc004f70149baeba2c8ec672bd4f27761f8e1ad6b",
	`"integrity": "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR=="`,
	"golang.org/x/text v0.3.0 h1:g61tztE5qeGQ89tm6NTjjM9VPIm088od1l6aSorWRWg=",
	"cat /home/alice/Projects2024/MyRepo/internal/sanitize/sanitize_test.go",
	"session 5f0c6c1e-2f7b-4d8a-9a51-0c1f3c2a7e11 started",
	"go test -run TestStringMasksSecretsInLongIdentifierNames2 ./internal/...",
	"mkdir -p build && find . -name '*.go' -print",
	"ssh -p 2222 deploy@example.com uptime",
	"docker run -p 8080:80 -u 1000:1000 nginx",
	"git push -u origin main",
	"sort -u names.txt | head -n 5",
	"max_tokens=100 password_file=/run/pw",
	"grep -i password config.yml",
	"curl https://example.com:8443/x",
	"mysql -p app",
	"psql -h db -U app -c 'select 1'",
	"npm config set registry https://registry.npmjs.org/",
	"git config --global user.name 'Alice Example'",
	"-----BEGIN PUBLIC KEY-----",
	"ls ~/.cache/go-build/ab/ab1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcd-d",
	"https://github.com/atreides-dev/atreides/settings/hooks/123456789",
	"npm install @types/node@20.11.5 --save-dev",
	"go build -o bin/atreides ./cmd/atreides",
	"the bypass=1 flag and key=value pairs",
	"curl -X POST https://hooks.slack.com/",
}

func TestSecretCorpus(t *testing.T) {
	if len(secretCorpus) < 50 || len(harmlessCorpus) < 20 {
		t.Fatalf("corpus too small: %d secrets, %d harmless", len(secretCorpus), len(harmlessCorpus))
	}
	for _, c := range secretCorpus {
		got := String(c.in, 0)
		if strings.Contains(got, c.secret) {
			t.Errorf("secret %q survived:\n  in  %q\n  got %q", c.secret, c.in, got)
		}
		if !strings.Contains(got, c.keep) {
			t.Errorf("context %q lost:\n  in  %q\n  got %q", c.keep, c.in, got)
		}
	}
	for _, in := range harmlessCorpus {
		if got := String(in, 0); got != in {
			t.Errorf("harmless text changed:\n  in  %q\n  got %q", in, got)
		}
	}
}

// Rules compile lazily, so a broken pattern would only show when its
// trigger first appears in production: compile them all here, and check
// that each one is needed by some input of the corpus.
func TestRulesCompileAndAreUsed(t *testing.T) {
	rules := maskRules
	if len(rules) > 64 {
		t.Fatalf("%d rules: programRules holds a 64-bit mask", len(rules))
	}
	for i := range rules {
		r := &rules[i]
		if !slices.Contains(r.re.get().SubexpNames(), "v") {
			t.Errorf("rule %d (%v%v) has no group v", i, r.triggers, r.programs)
		}
		r.scopeRe()
		for _, w := range append(slices.Clone(r.triggers), r.programs...) {
			if w != strings.ToLower(w) {
				t.Errorf("rule %d: trigger %q is not lower case", i, w)
			}
		}
		used := false
		for _, c := range secretCorpus {
			used = used || len(r.find(c.in)) > 0
		}
		if !used {
			t.Errorf("rule %d (%v%v) masks nothing in the corpus", i, r.triggers, r.programs)
		}
	}
}

// The bigram filter must never hide a trigger that is there.
func FuzzTriggerFilter(f *testing.F) {
	f.Add("curl -u A:b https://hooks.slack.com/services/x", "hooks.slack.com/")
	f.Fuzz(func(t *testing.T, s, trig string) {
		if !utf8.ValidString(s) || !utf8.ValidString(trig) {
			return // String makes text valid before masking
		}
		var g bigrams
		g.add(s)
		// Triggers and the filter fold ASCII only: option and key names are ASCII.
		fold := func(s string) string {
			return strings.Map(func(r rune) rune {
				if r < utf8.RuneSelf {
					return rune(foldByte(byte(r)))
				}
				return r
			}, s)
		}
		if trig != "" && strings.Contains(fold(s), fold(trig)) && !g.hasAll(trig) {
			t.Fatalf("filter hides %q in %q", trig, s)
		}
	})
}
