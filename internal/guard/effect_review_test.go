package guard

import "testing"

// Each class: the command that bypasses review or turns a control off,
// and its harmless neighbour (a read, a dry run, the routine form).

func TestReviewGitHooksSkipped(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`git commit --no-verify -m "fix: typo"`, Ask, "review.bypass"},
		{`git commit -n -m wip`, Ask, "review.bypass"},
		{`git commit -anm wip`, Ask, "review.bypass"},
		{`git push origin main --no-verify`, Ask, "review.bypass"},
		{`git merge --no-verify feature`, Ask, "review.bypass"},
		{`HUSKY=0 git commit -m wip`, Ask, "review.bypass"},
		{`SKIP=gitleaks,detect-secrets git commit -m wip`, Ask, "review.bypass"},
		{`LEFTHOOK=0 git push origin feature`, Ask, "review.bypass"},
		{`export HUSKY=0 && git commit -m wip`, Ask, "review.bypass"},
		{`pre-commit uninstall`, Ask, "review.bypass"},
		{`npx husky uninstall`, Ask, "review.bypass"},
		// Neighbours.
		{`git commit -m "fix: typo"`, Allow, ""},
		{`git commit -am "fix: typo"`, Allow, ""},
		{`git commit -mn`, Allow, ""}, // the message is "n"
		{`git commit --dry-run`, Allow, ""},
		{`HUSKY=1 git commit -m wip`, Allow, ""},
		{`HUSKY=0 npm ci`, Allow, ""},
		{`SKIP=lint make check`, Allow, ""},
		{`pre-commit run --all-files`, Allow, ""},
		{`pre-commit install`, Allow, ""},
	})
}

func TestReviewGitPushAndPreview(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`git push origin v1.4.0`, Ask, "remote.change"},
		{`git push origin refs/tags/release-7`, Ask, "remote.change"},
		{`git push --tags`, Ask, "remote.change"},
		{`git push --follow-tags origin main`, Ask, "remote.change"},
		{`git push --force-with-lease origin main`, Ask, "review.bypass"},
		{`git add .env && git commit -m config`, Ask, "review.bypass"},
		{`git push --dry-run --no-dry-run --force origin main`, Deny, "git.push-force"},
		{`git rm --dry-run --no-dry-run --force file.txt`, Ask, "git.rm-force"},
		{`git rm -n --no-dry-run --force file.txt`, Ask, "git.rm-force"},
		{`git clean -n --no-dry-run -f`, Deny, "git.clean-force"},
		{`git clean -fn`, Allow, ""},
		// Neighbours.
		{`git push -u origin feature/invoice-export`, Allow, ""},
		{`git push origin HEAD`, Allow, ""},
		{`git push --force-with-lease origin feature/invoice-export`, Allow, ""},
		{`git tag -a v1.4.0 -m "release 1.4.0"`, Allow, ""},
		{`git push --dry-run origin v1.4.0`, Allow, ""},
		{`git push -n --force origin main`, Allow, ""},
		{`git clean -n -d`, Allow, ""},
		{`git rm -n -r --force build`, Allow, ""},
		{`git add -n .`, Allow, ""},
		{`git add .env.example`, Allow, ""},
	})
}

func TestReviewGitConfig(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`git config core.hooksPath /dev/null`, Ask, "tamper.git-config"},
		{`git config --global core.hooksPath ~/hooks`, Ask, "tamper.git-config"},
		{`git remote set-url origin https://github.com/not-acme/app-mirror.git`, Ask, "tamper.git-config"},
		{`git -c alias.x='!sh -c id' x`, Ask, ""},
		// Neighbours.
		{`git config core.hooksPath .githooks`, Allow, ""},
		{`git config --local core.hooksPath tools/hooks`, Allow, ""},
		{`git remote add upstream https://github.com/acme/app.git`, Allow, ""},
		{`git remote -v`, Allow, ""},
		{`git remote get-url origin`, Allow, ""},
	})
}

func TestReviewGitHub(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`gh repo delete acme/app --yes`, Ask, "remote.destroy"},
		{`gh repo edit acme/app --visibility public --accept-visibility-change-consequences`, Deny, "access.public"},
		{`gh repo edit --visibility=public`, Deny, "access.public"},
		{`gh api -X DELETE repos/acme/app/branches/main/protection`, Ask, "safety.disable"},
		{`gh api --method DELETE repos/acme/app/rulesets/12`, Ask, "safety.disable"},
		{`gh api -X PUT repos/acme/app/actions/permissions -F enabled=false`, Ask, "safety.disable"},
		{`gh api -X DELETE repos/acme/app/git/refs/heads/main`, Ask, "remote.destroy"},
		{`gh api -X PATCH repos/acme/app -f default_branch=develop`, Ask, "remote.change"},
		{`gh api repos/acme/app/issues -f title=x`, Ask, "remote.change"}, // fields: a POST
		{`gh api repos/acme/app/collaborators/someone -X PUT -f permission=admin`, Ask, "access.grant"},
		{`gh api graphql -f query='mutation { deleteRepository(input:{}) { clientMutationId } }'`, Ask, "remote.change"},
		{`gh release create v1.4.0 --notes x`, Ask, ""},
		{`gh secret set DEPLOY_KEY --body x`, Ask, "remote.change"},
		{`gh secret delete PROD_DEPLOY_KEY`, Ask, "remote.destroy"},
		{`gh variable set DEPLOY_ENV --body production`, Ask, "remote.change"},
		{`gh pr merge 412 --squash --admin`, Ask, "review.bypass"},
		{`gh pr merge 412 --squash`, Ask, "remote.change"},
		{`gh run cancel 9876543210`, Ask, "remote.change"},
		{`gh workflow disable ci.yml`, Ask, ""},
		{`gh workflow run deploy.yml -f environment=production`, Ask, "prod.change"},
		{`gh ssh-key add ~/.ssh/id_deploy.pub --title agent`, Ask, "access.grant"},
		{`gh extension install someuser/gh-turbo`, Ask, "supply.outside-source"},
		// Neighbours.
		{`gh api repos/acme/app`, Allow, ""},
		{`gh api repos/acme/app/branches/main/protection`, Allow, ""},
		{`gh api graphql -f query='query { viewer { login } }'`, Allow, ""},
		{`gh api -X GET search/issues -f q=bug`, Allow, ""},
		{`gh pr view 412 --comments`, Allow, ""},
		{`gh pr list --state open`, Allow, ""},
		{`gh pr checks 412`, Allow, ""},
		{`gh pr create --draft --title "feat: x" --body "WIP"`, Allow, ""},
		{`gh pr comment 412 --body "Addressed review"`, Allow, ""},
		{`gh secret list`, Allow, ""},
		{`gh release list`, Allow, ""},
		{`gh workflow run ci.yml --ref feature`, Allow, ""},
		{`gh repo clone acme/infra ../infra`, Allow, ""},
	})
}

func TestReviewVerificationOff(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`NODE_TLS_REJECT_UNAUTHORIZED=0 npm install`, Ask, "safety.disable"},
		{`export NODE_TLS_REJECT_UNAUTHORIZED=0`, Ask, "safety.disable"},
		{`PYTHONHTTPSVERIFY=0 python fetch.py`, Ask, "safety.disable"},
		{`GIT_SSL_NO_VERIFY=1 git clone https://git.example.com/app.git`, Ask, "safety.disable"},
		{`GONOSUMDB=* GOINSECURE=* go get example.com/internal/pkg@latest`, Ask, "safety.disable"},
		{`go env -w GOSUMDB=off`, Ask, "safety.disable"},
		{`go env -w GOINSECURE=*`, Ask, "safety.disable"},
		{`pip install --break-system-packages httpie`, Ask, "safety.disable"},
		{`uv pip install --system --break-system-packages requests`, Ask, "safety.disable"},
		{`ssh -o StrictHostKeyChecking=no root@203.0.113.10`, Ask, "safety.disable"},
		{`scp -o UserKnownHostsFile=/dev/null a.txt host:`, Ask, "safety.disable"},
		{`rsync -e 'ssh -o StrictHostKeyChecking=no' -a src/ host:/srv/`, Ask, "safety.disable"},
		{`yarn config set enableStrictSsl false`, Ask, "safety.disable"},
		{`composer config --global secure-http false`, Ask, "safety.disable"},
		{`conda config --set ssl_verify false`, Ask, "safety.disable"},
		{`aws s3 ls s3://bucket --no-verify-ssl`, Ask, "safety.disable"},
		{`helm install app ./chart --insecure-skip-tls-verify`, Ask, "safety.disable"},
		{`mvn -Dmaven.wagon.http.ssl.insecure=true install`, Ask, "safety.disable"},
		{`podman pull --tls-verify=false registry.example.com/img`, Ask, "safety.disable"},
		// Neighbours.
		{`npm install`, Allow, ""},
		{`NODE_ENV=test npm test`, Allow, ""},
		{`go env GOSUMDB`, Allow, ""},
		{`go env -w GOPRIVATE=github.com/acme/*`, Allow, ""},
		{`pip install --user httpie`, Allow, ""},
		{`ssh -o StrictHostKeyChecking=accept-new deploy@build.example.com uptime`, Allow, ""},
		{`ssh -o ConnectTimeout=5 host uptime`, Allow, ""},
		{`rsync -av -e ssh src/ host:/srv/app/`, Allow, ""},
		{`conda config --set auto_activate_base false`, Allow, ""},
		{`curl -k https://localhost:8443/health`, Allow, ""},
		{`aws s3 ls s3://bucket`, Allow, ""},
	})
}

func TestReviewOSControls(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`sudo setenforce 0`, Deny, "safety.os-control"},
		{`sudo auditctl -e 0`, Deny, "safety.os-control"},
		{`sudo auditctl -D`, Deny, "safety.os-control"},
		{`sudo iptables -P INPUT ACCEPT`, Deny, "safety.os-control"},
		{`sudo iptables -F`, Deny, "safety.os-control"},
		{`sudo ufw disable`, Deny, "safety.os-control"},
		{`sudo systemctl stop firewalld`, Deny, "safety.os-control"},
		{`sudo systemctl disable --now apparmor.service`, Deny, "safety.os-control"},
		{`sudo service auditd stop`, Deny, "safety.os-control"},
		{`sudo sysctl -w kernel.randomize_va_space=0`, Deny, "safety.os-control"},
		{`csrutil disable`, Deny, "safety.os-control"},
		{`sudo spctl --master-disable`, Deny, "safety.os-control"},
		{`vault audit disable file/`, Ask, "safety.disable"},
		{`kubectl label ns production pod-security.kubernetes.io/enforce=privileged --overwrite`, Ask, "safety.disable"},
		{`sudo swapoff -a`, Ask, "system.mount"},
		{`sudo umount /home`, Ask, "system.mount"},
		// Neighbours.
		{`getenforce`, Allow, ""},
		{`sestatus`, Allow, ""},
		{`sudo setenforce 1`, Allow, ""},
		{`sudo ufw status verbose`, Allow, ""},
		{`sudo iptables -L -n`, Allow, ""},
		{`sudo auditctl -l`, Allow, ""},
		{`systemctl status firewalld`, Allow, ""},
		{`sysctl kernel.randomize_va_space`, Allow, ""},
		{`csrutil status`, Allow, ""},
		{`vault audit list`, Allow, ""},
		{`kubectl label pod web-1 tier=frontend`, Allow, ""},
		{`swapon --show`, Allow, ""},
		{`umount /mnt/usb`, Ask, "system.mount"},
	})
}

func TestReviewAgentSettings(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`sed -i 's/"defaultMode": "default"/"defaultMode": "bypassPermissions"/' ~/.claude/settings.json`, Ask, ""},
		{`jq 'del(.hooks)' ~/.claude/settings.json > /tmp/s.json && mv /tmp/s.json ~/.claude/settings.json`, Ask, ""},
		{`echo '{"permissions":{"allow":["Bash(*)"]}}' > .claude/settings.local.json`, Ask, ""},
		{`rm -f .claude/settings.local.json`, Ask, ""},
		{`chmod -x ~/.claude/hooks/guard.sh`, Ask, ""},
		{`sed -i 's/approval_policy = "on-request"/approval_policy = "never"/' ~/.codex/config.toml`, Ask, ""},
		// Neighbours.
		{`cat ~/.claude/settings.json`, Allow, ""},
		{`jq .permissions .claude/settings.local.json`, Allow, ""},
		{`echo x > .claude/commands/review.md`, Allow, ""},
		{`cat ~/.codex/config.toml`, Allow, ""},
	})
}

func TestReviewChecksConfig(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`sed -i '/gitleaks/,+3d' .pre-commit-config.yaml`, Ask, "review.bypass"},
		{`yq -i 'del(.repos[] | select(.repo | test("detect-secrets")))' .pre-commit-config.yaml`, Ask, "review.bypass"},
		{`rm .pre-commit-config.yaml`, Ask, "review.bypass"},
		{`git rm .pre-commit-config.yaml`, Ask, "review.bypass"},
		{`sed -i 's/pull_request:/pull_request_target:/' .github/workflows/ci.yml`, Ask, "safety.disable"},
		{`git clone --upload-pack='touch /tmp/x' https://example.com/r.git`, Ask, "rce.tool-exec"},
		{`git clone 'ext::sh -c id' x`, Ask, "rce.tool-exec"},
		{`git -c protocol.ext.allow=always fetch origin`, Ask, "tamper.git-config"},
		{`git -c uploadpack.packObjectsHook=./hook fetch origin`, Ask, "tamper.git-config"},
		// Neighbours.
		{`sed -i 's/rev: v4.5.0/rev: v4.6.0/' .pre-commit-config.yaml`, Allow, ""},
		{`sed -n '/gitleaks/p' .pre-commit-config.yaml`, Allow, ""},
		{`grep -n gitleaks .pre-commit-config.yaml`, Allow, ""},
		{`sed -i 's/node-version: 18/node-version: 20/' .github/workflows/ci.yml`, Allow, ""},
		{`git clone https://github.com/acme/app.git`, Allow, ""},
		{`git -c core.pager=less log`, Allow, ""},
	})
}

func TestReviewSameShape(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`glab mr merge 3`, Ask, "remote.change"},
		{`glab mr approve 3`, Ask, "review.bypass"},
		{`gh pr review 3 --approve`, Ask, "review.bypass"},
		{`glab ci retry 12`, Ask, "remote.change"},
		{`glab repo delete group/project`, Ask, "remote.destroy"},
		{`glab api --method DELETE projects/1`, Ask, "remote.destroy"},
		{`gh issue delete 3 --yes`, Ask, "remote.destroy"},
		{`sudo pfctl -d`, Deny, "safety.os-control"},
		{`netsh advfirewall set allprofiles state off`, Deny, "safety.os-control"},
		{`sudo aa-teardown`, Deny, "safety.os-control"},
		{`sudo umount -a`, Ask, "system.mount"},
		// Neighbours.
		{`glab mr create --fill`, Allow, ""},
		{`glab mr view 3`, Allow, ""},
		{`glab ci view`, Allow, ""},
		{`gh pr review 3 --comment -b ok`, Allow, ""},
		{`gh cache delete 1`, Allow, ""},
		{`sudo pfctl -s rules`, Allow, ""},
		{`netsh advfirewall show allprofiles`, Allow, ""},
		{`aa-status`, Allow, ""},
	})
}

func TestReviewTrustStores(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`keytool -importcert -cacerts -alias corp-root -file ~/Downloads/corp-ca.crt -noprompt -storepass changeit`, Deny, "safety.os-control"},
		{`keytool -import -trustcacerts -keystore $JAVA_HOME/lib/security/cacerts -file corp.crt -noprompt`, Deny, "safety.os-control"},
		{`sudo keytool -delete -cacerts -alias somerootca -storepass changeit`, Ask, "safety.disable"},
		{`sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain corp-ca.cer`, Deny, ""},
		{`security add-trusted-cert -r trustRoot corp-ca.cer`, Deny, "safety.os-control"},
		{`certutil -addstore -f Root corp-ca.cer`, Deny, "safety.os-control"},
		{`certutil -d sql:$HOME/.pki/nssdb -A -t C,, -n corp -i corp-ca.crt`, Deny, "safety.os-control"},
		{`pwsh -c "Import-Certificate -FilePath corp.cer -CertStoreLocation Cert:\LocalMachine\Root"`, Deny, "safety.os-control"},
		{`sudo trust anchor corp-ca.crt`, Deny, ""},
		{`dotnet dev-certs https --trust`, Ask, "safety.disable"},
		{`mkcert -install`, Ask, "safety.disable"},
		// Neighbours: reads, a project's own keystore, local certificates.
		{`keytool -list -cacerts -storepass changeit`, Allow, ""},
		{`keytool -printcert -file server.crt`, Allow, ""},
		{`security find-certificate -a -c "Corp Root"`, Allow, ""},
		{`certutil -d sql:$HOME/.pki/nssdb -L`, Allow, ""},
		{`dotnet dev-certs https --check`, Allow, ""},
		{`dotnet dev-certs https`, Allow, ""},
		{`mkcert localhost 127.0.0.1`, Allow, ""},
		{`sudo update-ca-certificates`, Allow, ""},
	})
}

func TestReviewOSAndDeviceControls(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`adb shell su -c 'setenforce 0'`, Deny, ""}, // the device's root shell or its SELinux
		{`adb -s emulator-5554 shell setenforce permissive`, Deny, "safety.os-control"},
		{`adb shell settings put global package_verifier_enable 0`, Ask, "safety.disable"},
		{`adb shell settings put global verifier_verify_adb_installs 0`, Ask, "safety.disable"},
		{`adb shell settings put secure install_non_market_apps 1`, Ask, "safety.disable"},
		{`sudo xattr -rd com.apple.quarantine /Applications/Tool.app`, Ask, "safety.disable"},
		{`xattr -d com.apple.quarantine ~/Downloads/tool`, Ask, "safety.disable"},
		{`pwsh -c "Set-ExecutionPolicy Unrestricted -Scope CurrentUser -Force"`, Ask, "safety.disable"},
		{`pwsh -Command "Set-ExecutionPolicy -ExecutionPolicy Bypass"`, Ask, "safety.disable"},
		// Neighbours: reads, the device's ordinary settings, one session.
		{`adb shell getenforce`, Allow, ""},
		{`adb shell settings get global package_verifier_enable`, Allow, ""},
		{`adb shell settings put global window_animation_scale 0`, Allow, ""},
		{`adb shell pm list packages`, Allow, ""},
		{`adb logcat -d`, Allow, ""},
		{`xattr -l ~/Downloads/tool`, Allow, ""},
		{`xattr -p com.apple.quarantine ~/Downloads/tool`, Allow, ""},
		{`pwsh -c "Set-ExecutionPolicy Bypass -Scope Process -Force"`, Allow, ""},
		{`pwsh -c "Set-ExecutionPolicy RemoteSigned -Scope CurrentUser"`, Allow, ""},
		{`pwsh -ExecutionPolicy Bypass -File ./scripts/build.ps1`, Allow, ""},
	})
}

func TestReviewPackageVerificationOff(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`conda install -y --insecure -c conda-forge pandas`, Ask, "safety.disable"},
		{`mamba create -n env -k python=3.12`, Ask, "safety.disable"},
		{`apt-get install -y --allow-unauthenticated tool`, Ask, "safety.disable"},
		{`dnf install -y --nogpgcheck ./tool.rpm`, Ask, "safety.disable"},
		{`zypper --no-gpg-checks install tool`, Ask, "safety.disable"},
		{`conda config --set ssl_verify false`, Ask, "safety.disable"},
		// Neighbours: the same installs with their checks on.
		{`conda install -y -c conda-forge pandas`, Allow, ""},
		{`mamba create -n env python=3.12`, Allow, ""},
		{`apt-get install -y tool`, Allow, ""},
		{`conda config --set ssl_verify true`, Allow, ""},
	})
}

func TestReviewGitDeployRemote(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`git push heroku main`, Ask, "remote.change"},
		{`git push dokku main`, Ask, "remote.change"},
		{`git push https://git.heroku.com/shop.git HEAD:main`, Ask, "remote.change"},
		{`git push production main`, Ask, "prod.change"},
		{`git push prod-eu HEAD:main`, Ask, "prod.change"},
		// Neighbours: staging remotes, previews, ordinary remotes.
		{`git push heroku-staging main`, Allow, ""},
		{`git push staging main`, Allow, ""},
		{`git push https://git.heroku.com/shop-staging.git HEAD:main`, Allow, ""},
		{`git push --dry-run heroku main`, Allow, ""},
		{`git push origin feature/checkout`, Allow, ""},
		{`git push git@github.com:acme/prod-tools.git feature/x`, Allow, ""},
	})
}

func TestReviewVerificationSettingsOff(t *testing.T) {
	checkCases(t, DefaultPolicy(), []verdictCase{
		{`VAULT_SKIP_VERIFY=1 vault kv get secret/app`, Ask, "safety.disable"},
		{`vault status -tls-skip-verify`, Ask, "safety.disable"},
		{`gcloud config set auth/disable_ssl_validation True`, Ask, "safety.disable"},
		{`poetry config certificates.corp.cert false`, Ask, "safety.disable"},
		{`bundle config set --global ssl_verify_mode 0`, Ask, "safety.disable"},
		{`skopeo copy --src-tls-verify=false docker://registry.local/a:1 dir:/tmp/a`, Ask, "safety.disable"},
		{`pwsh -c 'Add-MpPreference -ExclusionPath C:\'`, Ask, "safety.disable"},
		{`defaults write com.apple.LaunchServices LSQuarantine -bool false`, Ask, "safety.disable"},
		{`adb disable-verity`, Ask, "safety.disable"},
		{`fastboot flashing unlock`, Ask, "safety.disable"},
		// Neighbours: reads and the settings beside them.
		{`vault status`, Allow, ""},
		{`gcloud config set project demo-dev`, Allow, ""},
		{`bundle config set --local path vendor/bundle`, Allow, ""},
		{`pwsh -c 'Get-MpPreference'`, Allow, ""},
		{`defaults read com.apple.LaunchServices LSQuarantine`, Allow, ""},
		{`defaults write com.apple.dock autohide -bool true`, Allow, ""},
		{`adb devices -l`, Allow, ""},
		{`fastboot flash boot out/boot.img`, Allow, ""},
	})
}
