package guard

// kubectlNames are kubectl and the CLIs that take its commands.
var kubectlNames = []string{"kubectl", "oc", "kubecolor"}

// kubernetesRules are registerKubernetes's rules, static data: loading the
// batch allocates none of them.
var kubernetesRules = []*Rule{
	{ID: ruleK8sDeleteNamespace, Category: "kubernetes", Group: "kubernetes", Verdict: Deny, Names: kubectlNames,
		Sub: []string{"delete", "namespace|namespaces|ns|node|nodes|pv|persistentvolume|crd|customresourcedefinition"}, Reason: "deleting namespaces, nodes or volumes destroys everything in them; ask the user"},
	{ID: ruleK8sDeleteAll, Category: "kubernetes", Group: "kubernetes", Verdict: Deny, Names: kubectlNames,
		Sub: []string{"delete"}, AnyFlag: []string{"--all", "-A", "--all-namespaces"}, Reason: "deleting all resources; ask the user"},
	{ID: ruleK8sDrain, Category: "kubernetes", Group: "kubernetes", Verdict: Deny, Names: kubectlNames,
		Sub: []string{"drain|cordon|taint"}, Reason: "draining or tainting nodes disrupts workloads; ask the user"},
	{ID: ruleK8sScaleZero, Category: "kubernetes", Group: "kubernetes", Verdict: Ask, Names: kubectlNames,
		Sub: []string{"scale"}, When: whenK8sScaleZero,
		Reason: "scaling to zero stops the service; ask the user"},
	{ID: ruleK8sHelmUninstall, Category: "kubernetes", Group: "kubernetes", Verdict: Deny, Names: []string{"helm"},
		Sub: []string{"uninstall|delete|del|un"}, Reason: "uninstalling a Helm release deletes its resources; ask the user"},
}

// Opt-in group "kubernetes": cluster-destructive kubectl/helm operations
// (the default policy already asks for kubectl delete and helm uninstall).
func registerKubernetes() {
	register(kubernetesRules...)
}

// whenK8sScaleZero is the condition of rule k8s.scale-zero.
func whenK8sScaleZero(c *Cmd) bool { v, _ := c.Flag("--replicas"); return v == "0" }
