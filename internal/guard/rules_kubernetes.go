package guard

// Opt-in group "kubernetes": cluster-destructive kubectl/helm operations
// (the default policy already asks for kubectl delete and helm uninstall).
func registerKubernetes() {
	k := []string{"kubectl", "oc", "kubecolor"}
	register(
		&Rule{ID: ruleK8sDeleteNamespace, Category: "kubernetes", Group: "kubernetes", Verdict: Deny, Names: k,
			Sub: []string{"delete", "namespace|namespaces|ns|node|nodes|pv|persistentvolume|crd|customresourcedefinition"}, Reason: "deleting namespaces, nodes or volumes destroys everything in them; ask the user"},
		&Rule{ID: ruleK8sDeleteAll, Category: "kubernetes", Group: "kubernetes", Verdict: Deny, Names: k,
			Sub: []string{"delete"}, AnyFlag: []string{"--all", "-A", "--all-namespaces"}, Reason: "deleting all resources; ask the user"},
		&Rule{ID: ruleK8sDrain, Category: "kubernetes", Group: "kubernetes", Verdict: Deny, Names: k,
			Sub: []string{"drain|cordon|taint"}, Reason: "draining or tainting nodes disrupts workloads; ask the user"},
		&Rule{ID: ruleK8sScaleZero, Category: "kubernetes", Group: "kubernetes", Verdict: Ask, Names: k,
			Sub: []string{"scale"}, When: whenK8sScaleZero,
			Reason: "scaling to zero stops the service; ask the user"},
		&Rule{ID: ruleK8sHelmUninstall, Category: "kubernetes", Group: "kubernetes", Verdict: Deny, Names: []string{"helm"},
			Sub: []string{"uninstall|delete|del|un"}, Reason: "uninstalling a Helm release deletes its resources; ask the user"},
	)
}

// whenK8sScaleZero is the condition of rule k8s.scale-zero.
func whenK8sScaleZero(c *Cmd) bool { v, _ := c.Flag("--replicas"); return v == "0" }
